import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import { idPart, type Located, member, type ReceivingGateway, StrictMembers, type UplinkReading } from './uplink-reading.js';

/**
 * A message The Things Stack (v3) application server posts to a webhook, in its JSON format: the
 * `ApplicationUp` of lorawan-stack's `api/ttn/lorawan/v3/messages.proto`, members named as the proto
 * fields. Only `uplink_message` makes a record; the others (join accepts, downlink events, locations)
 * are acknowledged.
 */
export type TtsMessage = { kind: 'uplink'; reading: UplinkReading } | { kind: 'other'; type: string };

/** The correlation id The Things Stack before 3.28 gave each uplink as its application server handled it. */
const APPLICATION_UPLINK_ID = 'as:up:';

const read = new StrictMembers('tts');

/**
 * The message, or null when the body is not one (it names no end device); a member of the wrong JSON
 * type answers 422 (see `StrictMembers`).
 */
export function readTtsMessage(body: Record<string, unknown>): TtsMessage | null {
  const device = member(body, 'end_device_ids');
  if (!isPlainObject(device)) return null;
  const uplink = read.object(body, 'uplink_message', 'uplink_message');
  if (!uplink) return { kind: 'other', type: messageType(body) };
  const rx = read.objects(uplink, 'rx_metadata', 'uplink_message.rx_metadata');
  return {
    kind: 'uplink',
    reading: {
      network: 'tts',
      devEui: { value: read.string(device, 'dev_eui', 'end_device_ids.dev_eui'), path: 'end_device_ids.dev_eui' },
      deviceName: { value: read.string(device, 'device_id', 'end_device_ids.device_id'), path: 'end_device_ids.device_id' },
      time: bestTime(body, uplink, rx),
      gateways: rx.map((metadata, index) => gateway(metadata, `uplink_message.rx_metadata[${index}]`)),
      gatewaysPath: 'uplink_message.rx_metadata',
      frameCounter: { value: member(uplink, 'f_cnt'), path: 'uplink_message.f_cnt' },
      decoded: { value: read.object(uplink, 'decoded_payload', 'uplink_message.decoded_payload'), path: 'uplink_message.decoded_payload' },
      simulated: read.boolean(body, 'simulated', 'simulated') === true,
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
function gateway(metadata: Record<string, unknown>, path: string): ReceivingGateway {
  const rssiKey = member(metadata, 'rssi') === undefined && member(metadata, 'channel_rssi') !== undefined ? 'channel_rssi' : 'rssi';
  return {
    eui: read.string(read.object(metadata, 'gateway_ids', `${path}.gateway_ids`), 'eui', `${path}.gateway_ids.eui`),
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
  const correlated = read.strings(body, 'correlation_ids', 'correlation_ids').find((id) => id.startsWith(APPLICATION_UPLINK_ID));
  if (correlated) return correlated;
  const eui = read.string(device, 'dev_eui', 'end_device_ids.dev_eui')?.toUpperCase();
  const application = read.object(device, 'application_ids', 'end_device_ids.application_ids');
  const applicationId = read.string(application, 'application_id', 'end_device_ids.application_ids.application_id');
  const deviceId = eui ?? `${idPart(applicationId)}/${idPart(member(device, 'device_id'))}`;
  const session = read.string(uplink, 'session_key_id', 'uplink_message.session_key_id');
  const parts: unknown[] = [deviceId, session, member(uplink, 'f_cnt') ?? 0];
  if (session === undefined) parts.push(member(uplink, 'received_at'));
  return parts.map(idPart).join(':');
}
