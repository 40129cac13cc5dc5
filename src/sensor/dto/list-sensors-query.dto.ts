import { QueryBoolean, QueryChoice, QueryInteger, QueryText } from '../../common/query/query-rules.js';
import { SENSOR_STATES, type SensorState } from '../sensor-state.js';

export const SENSOR_LIST_MAX_LIMIT = 10_000;
export const SENSOR_LIST_DEFAULT_LIMIT = 1_000;

/** `GET /api-sensor/sensors` (docs/interface.md#get-api-sensorsensors). */
export class ListSensorsQueryDto {
  @QueryChoice(SENSOR_STATES)
  state?: SensorState;

  @QueryBoolean()
  sprung?: boolean;

  /** The dev_id after which the page starts (the `next` link carries it). */
  @QueryText(255)
  after?: string;

  /** Sensors per page; in CSV, without it, every sensor. */
  @QueryInteger(1, SENSOR_LIST_MAX_LIMIT)
  limit?: number;
}
