import { QueryInteger } from '../../common/query/query-rules.js';

export const RECENT_RECORDS_MAX = 100;
export const RECENT_RECORDS_DEFAULT = 10;

/** `GET /api-sensor/sensors/{dev_id}` (docs/interface.md#get-api-sensorsensorsdev_id). */
export class ShowSensorQueryDto {
  /** How many of its latest records come with the sensor. */
  @QueryInteger(0, RECENT_RECORDS_MAX)
  records?: number;
}
