import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import type { IntegrationNetwork } from '../integration-network.js';

/** A value of the uplink as received (of whatever JSON type it came), and where it was, for messages. */
export interface Located {
  value: unknown;
  /** The member's path in the uplink, e.g. `uplink_message.rx_metadata[0].rssi`. */
  path: string;
}

export interface ReceivingGateway {
  /** EUI-64 of the gateway, as sent (hex). */
  eui: unknown;
  rssi: Located;
  snr: Located;
}

/**
 * What a record is made of, read from one network server's uplink in that server's own words: the
 * network-neutral middle step between The Things Stack's and ChirpStack's JSON and a submission
 * (docs/interface.md#mapping-an-uplink-to-a-sensor-record).
 */
export interface UplinkReading {
  network: IntegrationNetwork;
  devEui: Located;
  /** The network server's id or name of the device. */
  deviceName: Located;
  /** The best time the uplink carries: a gateway's GPS time, else the network server's reception time. */
  time: Located;
  /** In the order the network server lists them. */
  gateways: ReceivingGateway[];
  /** Where the gateways are listed. */
  gatewaysPath: string;
  frameCounter: Located;
  /** The payload formatter's (codec's) output. */
  decoded: Located;
  /** Sent from the network server's console rather than by a device. */
  simulated: boolean;
  /** Names this uplink among all of the network server's, whichever delivery of it this is. */
  uplinkId: string;
}

/** The member `key` of `value` when `value` is an object (own members only: JSON.parse makes `__proto__` one). */
export function member(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A list member, or none. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A text for an uplink id: strings and numbers as they are, anything else as its JSON. */
export function idPart(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}
