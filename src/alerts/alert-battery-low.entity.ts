import { Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { AlertEntity } from './alert.entity.js';

/**
 * A battery alert that has fired for a sensor (table `alert_battery_lows`): it fires again only once
 * the voltage has risen above its threshold + 0.1 V, which deletes the row.
 */
@Entity({
  name: 'alert_battery_lows',
  comment: 'The battery alerts that have fired for a sensor and are armed again only above their threshold + 0.1 V.',
})
export class AlertBatteryLowEntity {
  @PrimaryColumn({ type: 'int', name: 'alert_id', comment: 'alerts.id.' })
  @ForeignKey(() => AlertEntity, { name: 'alert_battery_lows_alert_fk', onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  alertId!: number;

  @PrimaryColumn({ type: 'int', name: 'uid', comment: "users.uid of the sensor's owner." })
  uid!: number;

  /** Compared exactly, as sensor.dev_id. */
  @PrimaryColumn({ type: 'varchar', name: 'dev_id', length: 255, comment: "The sensor's dev_id." })
  devId!: string;
}
