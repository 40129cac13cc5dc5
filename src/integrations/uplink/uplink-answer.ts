import { CONTROL_CHARACTERS, escapeCharacters } from '../../common/text/control-characters.js';
import type { SensorRecordModel } from '../../serialization/sensor-record.model.js';
import { MAX_LISTED_VIOLATIONS } from '../../sensor-record/validation/validation-failure.js';
import type { IntegrationNetwork } from '../integration-network.js';

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

export const REFUSAL_MESSAGES = {
  simulated: 'A simulated uplink is acknowledged and not stored.',
  noDecodedPayload: (network: IntegrationNetwork) =>
    `The uplink has no decoded payload (${DECODER[network]} that returns the readings, e.g. {"event": "Sprung", "battery_voltage": 3.61}. Nothing was stored.`,
  invalidReadings: (violations: string[]) => {
    const lines = violations.slice(0, MAX_LISTED_VIOLATIONS);
    if (violations.length > lines.length) lines.push(`… and ${violations.length - lines.length} more.`);
    return `The uplink cannot become a sensor record; nothing was stored.\n${lines.map((line) => `${line}\n`).join('')}`;
  },
} as const;

export const IGNORED_MESSAGES = {
  ttsMessage: (type: string) => `A "${type}" message is acknowledged and not stored: only uplink messages become sensor records.`,
  // Quoted cut short and on one line, whatever the query named it.
  chirpstackEvent: (event: string) =>
    `A "${escapeCharacters(event.slice(0, 32), CONTROL_CHARACTERS)}" event is acknowledged and not stored: only "up" events become sensor records.`,
} as const;
