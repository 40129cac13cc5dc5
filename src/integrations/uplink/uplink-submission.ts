import { SENSOR_REPORT_BUNDLE } from '../../serialization/sensor-record.model.js';
import { ExactNumber } from '../../sensor-record/submission/exact-numbers.js';
import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import { NETWORK_NAMES } from '../integration-network.js';
import type { IntegrationCaller } from '../key/integration-caller.js';
import { macFromEui } from './gateway-mac.js';
import { member, type UplinkReading } from './uplink-reading.js';

/**
 * The readings a payload formatter reports, as the record's payload fields name them without their
 * `field_` prefix. `network`, `gateway` and `sequence` are not among them: the uplink itself says
 * those (docs/interface.md#mapping-an-uplink-to-a-sensor-record).
 */
export const READINGS = ['event', 'status', 'counter', 'battery_voltage', 'tilt_sensor', 'timeout', 'data'] as const;

export interface UplinkSubmission {
  /** Shaped as a submission to the sensor-record route, for the same validation. */
  submission: Record<string, unknown>;
  /** For each member of the submission (as validation names it), where in the uplink it came from. */
  sources: Map<string, string>;
  /** Members of the decoded payload that are none of the READINGS, in the formatter's order. */
  ignored: string[];
}

/** The submission an uplink with a decoded payload stands for. */
export function uplinkSubmission(reading: UplinkReading, caller: IntegrationCaller): UplinkSubmission {
  const sources = new Map<string, string>();
  const devId = caller.devIdSource === 'eui' ? reading.devEui : reading.deviceName;
  sources.set('dev_id', devId.path);
  sources.set('metadata.time', reading.time.path);
  sources.set('metadata.gateways', reading.gatewaysPath);
  sources.set('payload_fields.field_sequence', reading.frameCounter.path);

  const gateways = reading.gateways.map((gateway, index) => {
    sources.set(`metadata.gateways[${index}]`, `${reading.gatewaysPath}[${index}]`);
    sources.set(`metadata.gateways[${index}].rssi`, gateway.rssi.path);
    sources.set(`metadata.gateways[${index}].snr`, gateway.snr.path);
    return withoutAbsent({ rssi: wholeDecibels(gateway.rssi.value), snr: gateway.snr.value });
  });

  const payload: Record<string, unknown> = {
    type: SENSOR_REPORT_BUNDLE,
    field_network: caller.label ?? NETWORK_NAMES[reading.network],
    field_gateway: macFromEui(reading.gateways[0]?.eui),
    // Left out of the JSON when zero, as proto3 leaves out every default value.
    field_sequence: reading.frameCounter.value ?? 0,
  };
  // With the prefix first, as a formatter written for the sensor-record route names them.
  for (const field of READINGS) {
    const name = `field_${field}`;
    const key = [name, field].find((candidate) => member(reading.decoded.value, candidate) !== undefined);
    sources.set(`payload_fields.${name}`, `${reading.decoded.path}.${key ?? field}`);
    if (key !== undefined) payload[name] = member(reading.decoded.value, key);
  }

  const read = new Set(READINGS.flatMap((field) => [field, `field_${field}`]));
  const ignored = isPlainObject(reading.decoded.value) ? Object.keys(reading.decoded.value).filter((key) => !read.has(key)) : [];

  return {
    ignored,
    submission: {
      dev_id: typeof devId.value === 'string' && caller.devIdSource === 'eui' ? devId.value.toUpperCase() : devId.value,
      metadata: withoutAbsent({ time: reading.time.value, gateways: gateways.length > 0 ? gateways : undefined }),
      payload_fields: withoutAbsent(payload),
    },
    sources,
  };
}

/**
 * A violation line of the submission's validation (`<path>: <reason>`) in the uplink's own terms:
 * `payload_fields.field_event: …` becomes `uplink_message.decoded_payload.event: …`.
 */
export function uplinkViolation(line: string, sources: Map<string, string>): string {
  const separator = line.indexOf(': ');
  if (separator < 0) return line;
  const path = line.slice(0, separator);
  return `${sources.get(path) ?? path}${line.slice(separator)}`;
}

/** Gateways report RSSI in whole dBm, some as a float (`-97.0`); the record keeps an integer. */
function wholeDecibels(rssi: unknown): unknown {
  const decibels = rssi instanceof ExactNumber ? Number(rssi.text) : rssi;
  return typeof decibels === 'number' && Number.isFinite(decibels) ? Math.round(decibels) : rssi;
}

function withoutAbsent(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
