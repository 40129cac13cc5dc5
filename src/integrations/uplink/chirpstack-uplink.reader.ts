import { ApiException } from '../../common/errors/api-exception.js';
import type { PlainQueryParameter } from '../../common/query/plain-query-parameter.js';
import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import { UPLINK_BODY_MESSAGES } from './parse-uplink.pipe.js';
import { idPart, type Located, member, type ReceivingGateway, StrictMembers, type UplinkReading } from './uplink-reading.js';

/** ChirpStack's HTTP integration names the event in `?event=`; only `up` makes a record. */
export const CHIRPSTACK_UPLINK_EVENT = 'up';
/** The events ChirpStack (v4) posts besides `up`: acknowledged, not stored. */
export const CHIRPSTACK_OTHER_EVENTS = ['join', 'status', 'ack', 'txack', 'log', 'location', 'integration'] as const;

const read = new StrictMembers('chirpstack');

/** The event `?event=` names: one plain value (docs/interface.md#chirpstack), else 400. */
export function readChirpstackEvent(event: PlainQueryParameter): string {
  if (event.kind === 'malformed') {
    throw new ApiException(400, event.repeated ? UPLINK_BODY_MESSAGES.repeatedEvent : UPLINK_BODY_MESSAGES.eventNotPlain);
  }
  if (event.kind === 'absent' || event.value === '') throw new ApiException(400, UPLINK_BODY_MESSAGES.noEvent);
  return event.value;
}

/**
 * The `up` event ChirpStack (v4) posts with its JSON marshaler: the `UplinkEvent` of chirpstack's
 * `api/proto/integration/integration.proto`, members in lower camel case. Null when the body is not
 * one (it names no device); a member of the wrong JSON type answers 422 (see `StrictMembers`).
 */
export function readChirpstackUplink(body: Record<string, unknown>): UplinkReading | null {
  const device = member(body, 'deviceInfo');
  if (!isPlainObject(device)) return null;
  const rx = read.objects(body, 'rxInfo', 'rxInfo');
  return {
    network: 'chirpstack',
    devEui: { value: read.string(device, 'devEui', 'deviceInfo.devEui'), path: 'deviceInfo.devEui' },
    deviceName: { value: read.string(device, 'deviceName', 'deviceInfo.deviceName'), path: 'deviceInfo.deviceName' },
    time: bestTime(body, rx),
    gateways: rx.map((info, index): ReceivingGateway => ({
      eui: read.string(info, 'gatewayId', `rxInfo[${index}].gatewayId`),
      rssi: { value: member(info, 'rssi'), path: `rxInfo[${index}].rssi` },
      snr: { value: member(info, 'snr'), path: `rxInfo[${index}].snr` },
    })),
    gatewaysPath: 'rxInfo',
    frameCounter: { value: member(body, 'fCnt'), path: 'fCnt' },
    decoded: { value: read.object(body, 'object', 'object'), path: 'object' },
    simulated: false,
    uplinkId: uplinkId(body, device),
  };
}

/** The first gateway's GNSS time (`gwTime` is only set by a gateway with a GNSS module), else the event's time. */
function bestTime(body: Record<string, unknown>, rx: unknown[]): Located {
  const gps = rx.findIndex((info) => member(info, 'gwTime') !== undefined);
  if (gps >= 0) return { value: member(rx[gps], 'gwTime'), path: `rxInfo[${gps}].gwTime` };
  return { value: member(body, 'time'), path: 'time' };
}

/** ChirpStack's `deduplicationId` names the uplink across all gateways that heard it; without one, the device, counter and time do. */
function uplinkId(body: Record<string, unknown>, device: Record<string, unknown>): string {
  const deduplicationId = read.string(body, 'deduplicationId', 'deduplicationId');
  if (deduplicationId) return deduplicationId;
  return [member(device, 'devEui'), member(body, 'fCnt') ?? 0, member(body, 'time')].map(idPart).join(':');
}
