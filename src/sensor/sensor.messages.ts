import { CONTROL_CHARACTERS, escapeCharacters } from '../common/text/control-characters.js';

/** 403 of the sensor routes: no valid token, or a blocked user. */
export const SENSORS_DENIED_MESSAGE = 'You are not authorized to view sensors.';

/**
 * 404 of `GET /api-sensor/sensors/{dev_id}`: the caller has no sensor of that dev_id (another user's is
 * not theirs to see), naming the caller's own whose dev_id differs only in letter case: integrations
 * store EUIs upper-case, and a person types them lower-case.
 */
export function sensorNotFoundMessage(devId: string, caseVariants: string[] = []): string {
  const quoted = (id: string) => `"${escapeCharacters(id, CONTROL_CHARACTERS)}"`;
  const missing = `You have no sensor with dev_id ${quoted(devId)}.`;
  if (caseVariants.length === 0) return missing;
  return `${missing} Device ids are compared exactly, letter case included; yours that differ only in case: ${caseVariants.map(quoted).join(', ')}.`;
}
