import { CONTROL_CHARACTERS, escapeCharacters } from '../../common/text/control-characters.js';
import type { SensorRecordModel } from '../../serialization/sensor-record.model.js';
import { MAX_LISTED_VIOLATIONS } from '../../sensor-record/validation/validation-failure.js';
import type { IntegrationNetwork } from '../integration-network.js';
import { READINGS } from './uplink-submission.js';

/** Why an uplink was acknowledged without a record: the `reason` of a 202 and the label of its metric. */
export const REFUSAL_REASONS = ['simulated', 'no_decoded_payload', 'invalid_readings'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/**
 * What the network server is answered (docs/interface.md#what-the-network-server-is-answered): the
 * record (201 stored, 200 stored before), a 202 saying why nothing was stored, or a 200 for a message
 * that is not an uplink.
 */
export type UplinkAnswer =
  | { outcome: 'stored'; record: SensorRecordModel }
  | { outcome: 'duplicate'; record: SensorRecordModel }
  | { outcome: 'refused'; reason: RefusalReason; message: string }
  | { outcome: 'ignored'; message: string };

/** Where the decoded payload is looked for, and what to set up so that there is one. */
const DECODER: Record<IntegrationNetwork, string> = {
  tts: 'uplink_message.decoded_payload): give the end device or application an uplink payload formatter',
  chirpstack: 'object): give the device profile a codec',
};

const EXAMPLE_READINGS = '{"event": "Sprung", "battery_voltage": 3.61}';

/** What an invalid_readings answer adds after the violations, to say how to put them right. */
export interface ReadingsHints {
  /** Where the readings are, when a violation is among them. */
  decodedPath?: string;
  /** Members of the decoded payload that are none of the READINGS. */
  ignored: string[];
  /** Where the device id is, when the DevEUI names devices and the uplink has none. */
  deviceNamePath?: string;
  network: IntegrationNetwork;
}

export const REFUSAL_MESSAGES = {
  simulated: 'A simulated uplink is acknowledged and not stored.',
  noDecodedPayload: (network: IntegrationNetwork) =>
    `The uplink has no decoded payload (${DECODER[network]} that returns the readings, e.g. ${EXAMPLE_READINGS}. Nothing was stored.`,
  invalidReadings: (violations: string[], hints: ReadingsHints) => {
    const lines = violations.slice(0, MAX_LISTED_VIOLATIONS);
    if (violations.length > lines.length) lines.push(`… and ${violations.length - lines.length} more.`);
    if (hints.decodedPath !== undefined) {
      const ignored = hints.ignored.length > 0 ? ` Ignored there: ${hints.ignored.map(quotedMember).join(', ')}.` : '';
      lines.push(
        `Readings are taken from ${hints.decodedPath} by these names, each also as field_<name>: ${READINGS.join(', ')};` +
          ` e.g. ${EXAMPLE_READINGS}.${ignored}`,
      );
    }
    if (hints.deviceNamePath !== undefined) {
      lines.push(
        `A device without a DevEUI (activated by personalization, ABP) is named by its device id (${hints.deviceNamePath})` +
          ` through an integration made with --dev-id name: node dist/cli.js integration:create --user <user> --network ${hints.network} --dev-id name`,
      );
    }
    return `The uplink cannot become a sensor record; nothing was stored.\n${lines.map((line) => `${line}\n`).join('')}`;
  },
} as const;

/** A member name as a formatter wrote it, cut short and on one line. */
function quotedMember(name: string): string {
  return escapeCharacters(name.slice(0, 32), CONTROL_CHARACTERS);
}

export const IGNORED_MESSAGES = {
  ttsMessage: (type: string) => `A "${type}" message is acknowledged and not stored: only uplink messages become sensor records.`,
  // Quoted cut short and on one line, whatever the query named it.
  chirpstackEvent: (event: string) =>
    `A "${escapeCharacters(event.slice(0, 32), CONTROL_CHARACTERS)}" event is acknowledged and not stored: only "up" events become sensor records.`,
} as const;
