import type { Sensor } from './api';
import { h } from './dom';
import { isLowBattery, sprungClock, timeAgo, volts } from './format';

/** The threshold a sensor's battery is marked low under: its owner's battery_low alert's, or the default. */
export function lowBatteryBelow(sensor: Sensor): number | undefined {
  return sensor.battery_low_below === null ? undefined : Number(sensor.battery_low_below);
}

/** A voltage, flagged `low` in words as well as in colour under the threshold. */
export function batteryCell(voltage: string | null, lowBelow?: number): Node {
  if (voltage === null) return h('span', { class: 'muted' }, 'unknown');
  if (!isLowBattery(voltage, lowBelow)) return document.createTextNode(volts(voltage));
  return h('span', { class: 'battery-low' }, volts(voltage), ' ', h('span', { class: 'flag' }, 'low'));
}

/** The last known voltage and how long ago it was reported. */
export function lastBatteryCell(sensor: Sensor, now: number): Node {
  const cell = h('span', { class: 'battery' }, batteryCell(sensor.last_battery_voltage, lowBatteryBelow(sensor)));
  if (sensor.last_battery_time !== null) {
    cell.append(h('time', { class: 'ago', datetime: sensor.last_battery_time }, timeAgo(Date.parse(sensor.last_battery_time), now)));
  }
  return cell;
}

/**
 * "No", or the 24-hour clock of a sprung trap (docs/alerts.md#the-24-hour-clock): how long ago and
 * how long is left in words, the colour (amber, red, dark red) only repeating them.
 */
export function sprungCell(sensor: Sensor, now: number): Node {
  if (!sensor.sprung) return h('span', { class: 'muted' }, 'No');
  // Sprung before the episodes were kept: no clock to show.
  if (sensor.sprung_at === null) return h('span', { class: 'sprung' }, 'Sprung');
  const clock = sprungClock(Date.parse(sensor.sprung_at), now);
  return h(
    'span',
    { class: `sprung-clock clock-${clock.level}` },
    h('time', { datetime: sensor.sprung_at }, clock.since),
    h('span', { class: 'left' }, clock.left),
  );
}
