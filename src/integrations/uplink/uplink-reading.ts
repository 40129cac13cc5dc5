import { ApiException } from '../../common/errors/api-exception.js';
import { ExactNumber } from '../../sensor-record/submission/exact-numbers.js';
import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import type { IntegrationNetwork } from '../integration-network.js';
import { UPLINK_BODY_MESSAGES } from './parse-uplink.pipe.js';

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

/** A text for an uplink id: strings and numbers as they are, anything else as its JSON. */
export function idPart(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' || typeof value === 'number' || value instanceof ExactNumber ? String(value) : JSON.stringify(value);
}

/**
 * Reads the members of a network server's message that say what it is (its objects, lists and ids)
 * strictly: absent is allowed (the servers leave out empty members), but a member present with
 * another JSON type than the server sends, null included, makes the body not its message (422,
 * naming the member), rather than a record made of a guess. Readings (times, RSSI, SNR, the frame
 * counter, the decoded payload's members) are not read here: they go to validation as they are.
 */
export class StrictMembers {
  constructor(private readonly network: IntegrationNetwork) {}

  object(parent: unknown, key: string, path: string): Record<string, unknown> | undefined {
    return this.typed(member(parent, key), path, 'an object', isPlainObject);
  }

  /** The list's items, each an object; none when the member is absent. */
  objects(parent: unknown, key: string, path: string): Record<string, unknown>[] {
    const items = this.typed(member(parent, key), path, 'a list', Array.isArray) ?? [];
    return items.map((item, index) => this.typed(item, `${path}[${index}]`, 'an object', isPlainObject)!);
  }

  /** The list's items, each a string; none when the member is absent. */
  strings(parent: unknown, key: string, path: string): string[] {
    const items = this.typed(member(parent, key), path, 'a list', Array.isArray) ?? [];
    return items.map((item, index) => this.typed(item, `${path}[${index}]`, 'a string', isString)!);
  }

  string(parent: unknown, key: string, path: string): string | undefined {
    return this.typed(member(parent, key), path, 'a string', isString);
  }

  boolean(parent: unknown, key: string, path: string): boolean | undefined {
    return this.typed(member(parent, key), path, 'true or false', (value) => typeof value === 'boolean');
  }

  private typed<T>(value: unknown, path: string, expected: string, is: (value: unknown) => value is T): T | undefined {
    if (value === undefined) return undefined;
    if (!is(value)) throw new ApiException(422, UPLINK_BODY_MESSAGES.wrongType(this.network, path, expected));
    return value;
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
