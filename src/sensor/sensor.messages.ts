import { CONTROL_CHARACTERS, escapeCharacters } from '../common/text/control-characters.js';

/** 403 of the sensor routes: no valid token, or a blocked user. */
export const SENSORS_DENIED_MESSAGE = 'You are not authorized to view sensors.';

/** 404 of `GET /api-sensor/sensors/{dev_id}`: the caller has no sensor of that dev_id (another user's is not theirs to see). */
export function sensorNotFoundMessage(devId: string): string {
  return `You have no sensor with dev_id "${escapeCharacters(devId, CONTROL_CHARACTERS)}".`;
}
