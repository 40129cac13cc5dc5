import { SENSOR_REPORT_BUNDLE } from '../../serialization/sensor-record.model.js';
import { Unwrapped } from '../validation/member.decorators.js';
import { choice, decimal, integer, INT32_MAX, macAddress, text } from '../validation/member-rules.js';

const SENSOR_EVENTS = ['Sprung', 'Set', 'Vibration', 'Heartbeat', 'Baitlevel'] as const;
const SENSOR_STATUSES = ['Sprung', 'Set', 'Baitlevel'] as const;
const TILT_SENSOR_STATES = ['True', 'False', 'Fail', 'NotInstalled'] as const;

/** `field_timeout` of a submission without one: a heartbeat a day. */
export const DEFAULT_HEARTBEAT_TIMEOUT = 86_400;

const tiltFromBoolean = (value: unknown) => (typeof value === 'boolean' ? (value ? 'True' : 'False') : value);

export class PayloadFieldsDto {
  @Unwrapped(choice([SENSOR_REPORT_BUNDLE]), { required: true, key: 'target_id' })
  type!: string;

  @Unwrapped(choice(SENSOR_EVENTS), { required: true })
  field_event!: string;

  @Unwrapped(choice(SENSOR_STATUSES))
  field_status?: string;

  @Unwrapped(text(255))
  field_network?: string;

  /** Upper-cased. */
  @Unwrapped(macAddress())
  field_gateway?: string;

  @Unwrapped(integer(0, INT32_MAX))
  field_sequence?: number;

  @Unwrapped(integer(0, INT32_MAX))
  field_counter?: number;

  /** Rounded to 3 places, shortest form. */
  @Unwrapped(decimal())
  field_battery_voltage?: string;

  @Unwrapped(choice(TILT_SENSOR_STATES, { coerce: tiltFromBoolean, description: 'JSON true and false are read as True and False.' }))
  field_tilt_sensor?: string;

  /** Seconds; -1 no heartbeat, 0 expired. Absent means 86400. */
  @Unwrapped(integer(-1, INT32_MAX), { default: DEFAULT_HEARTBEAT_TIMEOUT })
  field_timeout?: number;

  /** Bait level, rounded like the other decimals. */
  @Unwrapped(decimal())
  field_data?: string;
}
