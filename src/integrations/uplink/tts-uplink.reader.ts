import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import { idPart, list, type Located, member, type ReceivingGateway, type UplinkReading } from './uplink-reading.js';

/**
 * A message The Things Stack (v3) application server posts to a webhook, in its JSON format: the
 * `ApplicationUp` of lorawan-stack's `api/ttn/lorawan/v3/messages.proto`, members named as the proto
 * fields. Only `uplink_message` makes a record; the others (join accepts, downlink events, locations)
 * are acknowledged.
 */
export type TtsMessage = { kind: 'uplink'; reading: UplinkReading } | { kind: 'other'; type: string };

/** The correlation id The Things Stack before 3.28 gave each uplink as its application server handled it. */
const APPLICATION_UPLINK_ID = 'as:up:';

/** The message, or null when the body is not one (it names no end device). */
export function readTtsMessage(body: Record<string, unknown>): TtsMessage | null {
  const device = member(body, 'end_device_ids');
  if (!isPlainObject(device)) return null;
  const uplink = member(body, 'uplink_message');
  if (!isPlainObject(uplink)) return { kind: 'other', type: messageType(body) };
  const rx = list(member(uplink, 'rx_metadata'));
  return {
    kind: 'uplink',
    reading: {
      network: 'tts',
      devEui: { value: member(device, 'dev_eui'), path: 'end_device_ids.dev_eui' },
      deviceName: { value: member(device, 'device_id'), path: 'end_device_ids.device_id' },
      time: bestTime(body, uplink, rx),
      gateways: rx.map((metadata, index) => gateway(metadata, `uplink_message.rx_metadata[${index}]`)),
      gatewaysPath: 'uplink_message.rx_metadata',
      frameCounter: { value: member(uplink, 'f_cnt'), path: 'uplink_message.f_cnt' },
      decoded: { value: member(uplink, 'decoded_payload'), path: 'uplink_message.decoded_payload' },
      simulated: member(body, 'simulated') === true,
      uplinkId: uplinkId(body, device, uplink),
    },
  };
}

/** The member that holds the message (`join_accept`, `downlink_ack`, …): the object beside the device's ids. */
function messageType(body: Record<string, unknown>): string {
  const type = Object.keys(body).find((key) => key !== 'end_device_ids' && isPlainObject(body[key]));
  // Quoted in the answer: cut short, whatever the body named it.
  return type === undefined ? 'unknown' : type.slice(0, 64);
}

/** The first gateway's GPS time, else the network server's reception time, else the application server's. */
function bestTime(body: Record<string, unknown>, uplink: Record<string, unknown>, rx: unknown[]): Located {
  const gps = rx.findIndex((metadata) => member(metadata, 'gps_time') !== undefined);
  if (gps >= 0) return { value: member(rx[gps], 'gps_time'), path: `uplink_message.rx_metadata[${gps}].gps_time` };
  if (member(uplink, 'received_at') !== undefined) return { value: member(uplink, 'received_at'), path: 'uplink_message.received_at' };
  return { value: member(body, 'received_at'), path: 'received_at' };
}

/** `rssi` equals `channel_rssi`; a gateway that reports only the latter still gives its signal strength. */
function gateway(metadata: unknown, path: string): ReceivingGateway {
  const rssiKey = member(metadata, 'rssi') === undefined && member(metadata, 'channel_rssi') !== undefined ? 'channel_rssi' : 'rssi';
  return {
    eui: member(member(metadata, 'gateway_ids'), 'eui'),
    rssi: { value: member(metadata, rssiKey), path: `${path}.${rssiKey}` },
    snr: { value: member(metadata, 'snr'), path: `${path}.snr` },
  };
}

/**
 * The `as:up:` correlation id when the stack gives one; otherwise the device, its session and the
 * frame counter, which name one uplink (the frame counter only runs up within a session). A device
 * without a session key id (activated by personalisation) may restart its counter, so its uplinks
 * are told apart by the network server's reception time as well. The DevEUI is hex, whatever case
 * it is written in: upper case, as the stack sends it and as the record's dev_id has it.
 */
function uplinkId(body: Record<string, unknown>, device: Record<string, unknown>, uplink: Record<string, unknown>): string {
  const correlated = list(member(body, 'correlation_ids')).find(
    (id): id is string => typeof id === 'string' && id.startsWith(APPLICATION_UPLINK_ID),
  );
  if (correlated) return correlated;
  const eui = euiForKey(member(device, 'dev_eui'));
  const deviceId = eui ?? `${idPart(member(member(device, 'application_ids'), 'application_id'))}/${idPart(member(device, 'device_id'))}`;
  const session = member(uplink, 'session_key_id');
  const parts = [deviceId, session, member(uplink, 'f_cnt') ?? 0];
  if (session === undefined) parts.push(member(uplink, 'received_at'));
  return parts.map(idPart).join(':');
}

function euiForKey(eui: unknown): unknown {
  return typeof eui === 'string' ? eui.toUpperCase() : eui;
}
