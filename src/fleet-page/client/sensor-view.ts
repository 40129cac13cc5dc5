import { ApiError, field, oneSensor, type RecordJson, type Sensor, SENSOR_RECORDS } from './api';
import { drawChart, type ChartPoint } from './chart';
import { byId, h } from './dom';
import { duration, STATE_WORDS, timeAgo } from './format';
import { batteryCell, lastBatteryCell, lowBatteryBelow, sprungCell } from './cells';
import type { Session } from './session';
import type uPlot from 'uplot';

const CHART_DAYS = 30;
const DAY_SECONDS = 86_400;

export interface SensorViewOptions {
  session: Session;
  siteTime: (instant: number) => string;
  timeZone: string;
}

/** One sensor: what it last said, its latest records, and a chart of its last 30 days. */
export class SensorView {
  private chart: uPlot | undefined;
  private shownDevId: string | undefined;

  constructor(private readonly options: SensorViewOptions) {}

  async show(devId: string): Promise<void> {
    this.shownDevId = devId;
    this.clear();
    byId('sensor-heading').textContent = `Sensor ${devId}`;
    try {
      const { sensor, records } = await oneSensor(this.options.session, devId);
      if (this.shownDevId !== devId) return;
      this.renderSummary(sensor);
      this.renderRecords(sensor, records);
      this.renderChart(records);
    } catch (failure) {
      if (this.shownDevId !== devId || !this.options.session.signedIn) return;
      byId('sensor-error').textContent =
        failure instanceof ApiError ? failure.message : 'The service could not be reached; try again shortly.';
    }
  }

  clear(): void {
    this.chart?.destroy();
    this.chart = undefined;
    byId('sensor-error').textContent = '';
    byId('sensor-summary').replaceChildren();
    byId('record-rows').replaceChildren();
    byId('chart').replaceChildren();
    byId('chart').removeAttribute('aria-label');
    byId('chart-caption').textContent = '';
  }

  /** Forgets the sensor (signing out). */
  close(): void {
    this.shownDevId = undefined;
    this.clear();
  }

  private renderSummary(sensor: Sensor): void {
    const now = Date.now();
    const heard = Date.parse(sensor.last_received);
    const entry = (term: string, ...details: Array<Node | string>) => [h('dt', {}, term), h('dd', {}, ...details)];
    const period =
      sensor.heartbeat_period === -1
        ? 'none'
        : sensor.heartbeat_period === 0
          ? 'expired'
          : `every ${duration(sensor.heartbeat_period * 1000)}`;
    byId('sensor-summary').replaceChildren(
      ...entry('State', h('span', { class: `badge state-${sensor.state}` }, STATE_WORDS[sensor.state])),
      ...entry('Sprung', sprungCell(sensor, now)),
      ...entry('Battery', lastBatteryCell(sensor, now)),
      ...entry('Last heard', `${this.options.siteTime(heard)}, ${timeAgo(heard, now)}`),
      ...entry('Last event', sensor.last_event),
      ...entry('Heartbeat', period),
      ...entry('Reports', String(sensor.report_count)),
    );
  }

  private renderRecords(sensor: Sensor, records: RecordJson[]): void {
    const rows = records.map((record) => {
      const time = field(record, 'field_date');
      const voltage = field(record, 'field_battery_voltage');
      const rssi = field(record, 'field_rssi');
      const snr = field(record, 'field_snr');
      return h(
        'tr',
        {},
        h('td', { 'data-label': 'Event' }, field(record, 'field_event') ?? ''),
        h('td', { 'data-label': 'Status' }, field(record, 'field_status') ?? '—'),
        h('td', { 'data-label': 'Time' }, time === null ? '' : h('time', { datetime: time }, this.options.siteTime(Date.parse(time)))),
        h('td', { 'data-label': 'Battery' }, batteryCell(voltage, lowBatteryBelow(sensor))),
        h('td', { 'data-label': 'Gateway' }, field(record, 'field_gateway') ?? '—'),
        h('td', { 'data-label': 'RSSI / SNR' }, rssi === null && snr === null ? '—' : `${rssi ?? '—'} dBm / ${snr ?? '—'} dB`),
      );
    });
    byId('record-rows').replaceChildren(...rows);
  }

  private renderChart(records: RecordJson[]): void {
    const to = Math.floor(Date.now() / 1000);
    const from = to - CHART_DAYS * DAY_SECONDS;
    const points: ChartPoint[] = [];
    for (const record of records) {
      const date = field(record, 'field_date');
      if (date === null) continue;
      const time = Math.floor(Date.parse(date) / 1000);
      if (time < from || time > to) continue;
      const voltage = field(record, 'field_battery_voltage');
      points.push({ time, event: field(record, 'field_event') ?? '', battery: voltage === null ? null : Number(voltage) });
    }
    const target = byId('chart');
    const batteries = points.filter((point) => point.battery !== null).length;
    target.setAttribute(
      'aria-label',
      `Chart of the last ${CHART_DAYS} days: ${batteries} battery readings and ${points.length} events; the table below lists the latest records.`,
    );
    this.chart = drawChart(target, points, { from, to }, this.options.timeZone);
    byId('chart-caption').textContent =
      records.length === SENSOR_RECORDS
        ? `Battery voltage and events over the last ${CHART_DAYS} days, from the latest ${SENSOR_RECORDS} records.`
        : `Battery voltage and events over the last ${CHART_DAYS} days.`;
  }
}
