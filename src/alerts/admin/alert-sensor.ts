import type { EntityManager } from 'typeorm';
import { CONTROL_CHARACTERS, escapeCharacters } from '../../common/text/control-characters.js';
import { DEV_ID_RULE } from '../../sensor-record/dto/create-sensor-record.dto.js';
import { SensorEntity } from '../../sensor/sensor.entity.js';
import { InvalidAlertInputError } from './alert-errors.js';

/** Spellings differing only in letter case that a warning names; more would be a list, not a hint. */
const CASE_VARIANTS_NAMED = 5;

const quoted = (devId: string) => `"${escapeCharacters(devId, CONTROL_CHARACTERS)}"`;

/**
 * Whether `alert:create --sensor` names a sensor the alert can hear of (docs/alerts.md#setting-up): the
 * user's own is taken; a dev_id no submission can carry is refused (it could never fire); another user's is refused, without naming that user (an alert hears only its
 * own user's sensors, so it could never fire); a dev_id no one has reported yet is taken with a
 * warning, since setting up a trap's alert before its first report is a normal step. The warning
 * names the user's sensors whose dev_id differs only in letter case: dev_ids compare exactly.
 */
export async function alertSensorWarning(
  manager: EntityManager,
  uid: number,
  username: string,
  devId: string,
): Promise<string | undefined> {
  const notADevId = DEV_ID_RULE.check(devId);
  if (notADevId !== undefined) {
    throw new InvalidAlertInputError(`--sensor ${quoted(devId)} can never be a dev_id, so the alert could never fire: ${notADevId}`);
  }
  const sensors = manager.getRepository(SensorEntity);
  const owners = (await sensors.find({ select: { uid: true }, where: { devId } })).map((sensor) => sensor.uid);
  if (owners.includes(uid)) return undefined;
  if (owners.length > 0) {
    throw new InvalidAlertInputError(
      `--sensor ${quoted(devId)} is another user's sensor, not one of ${username}'s: an alert hears only its own user's sensors.`,
    );
  }
  const variants = await sensors
    .createQueryBuilder('sensor')
    .select('sensor.devId', 'devId')
    .where('sensor.uid = :uid', { uid })
    .andWhere('LOWER(sensor.devId) = LOWER(:devId)', { devId })
    .orderBy('sensor.devId', 'ASC')
    .limit(CASE_VARIANTS_NAMED)
    .getRawMany<{ devId: string }>();
  const notYet = `${username} has no sensor ${quoted(devId)} yet: the alert hears of it from its first record.`;
  if (variants.length === 0) return notYet;
  return `${notYet} Device ids are compared exactly, letter case included; ${username}'s that differ only in case: ${variants
    .map((variant) => quoted(variant.devId))
    .join(', ')}.`;
}
