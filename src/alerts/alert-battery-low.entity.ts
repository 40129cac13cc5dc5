import { Entity, PrimaryColumn } from 'typeorm';

/**
 * A battery alert that has fired for a sensor (table `alert_battery_lows`): it fires again only once
 * the voltage has risen above its threshold + 0.1 V, which deletes the row.
 */
@Entity({ name: 'alert_battery_lows' })
export class AlertBatteryLowEntity {
  @PrimaryColumn({ type: 'int', name: 'alert_id' })
  alertId!: number;

  @PrimaryColumn({ type: 'int', name: 'uid' })
  uid!: number;

  @PrimaryColumn({ type: 'varchar', name: 'dev_id', length: 255 })
  devId!: string;
}
