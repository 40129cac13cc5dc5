import { allSensors, ApiError, csv, RECORDS_PATH, type Sensor, SENSORS_PATH } from './api';
import { byId, download, h } from './dom';
import { lastBatteryCell, sprungCell } from './cells';
import { STATE_WORDS, STATES, timeAgo, type SensorState } from './format';
import type { Session } from './session';

/** Rows drawn at once: the table stays quick with ten thousand sensors, a page at a time. */
const ROWS_PER_PAGE = 100;
/** The fleet reloads itself this often while it is shown. */
const REFRESH_EVERY_MS = 30_000;

type SortKey = 'dev_id' | 'state' | 'sprung' | 'battery' | 'heard';

/** Worst first when sorting by state. */
const STATE_ORDER: Record<SensorState, number> = { overdue: 0, expired: 1, no_heartbeat: 2, ok: 3 };

export interface FleetOptions {
  session: Session;
  siteTime: (instant: number) => string;
  zone: (instant: number) => string;
  openSensor: (devId: string) => void;
}

/** The fleet: counts per state, filters, the table a page at a time, refreshed every 30 s. */
export class FleetView {
  private sensors: Sensor[] = [];
  private shown: Sensor[] = [];
  private page = 0;
  private sort: { key: SortKey; descending: boolean } = { key: 'dev_id', descending: false };
  private timer: ReturnType<typeof setInterval> | undefined;
  private loading: Promise<void> | undefined;
  private loadedAt: number | undefined;

  private readonly search = byId<HTMLInputElement>('search');
  private readonly stateFilter = byId<HTMLSelectElement>('state-filter');
  private readonly sprungFilter = byId<HTMLSelectElement>('sprung-filter');
  private readonly rows = byId<HTMLTableSectionElement>('fleet-rows');

  constructor(private readonly options: FleetOptions) {
    this.search.addEventListener('input', () => this.filter());
    this.stateFilter.addEventListener('change', () => this.filter());
    this.sprungFilter.addEventListener('change', () => this.filter());
    byId('filters').addEventListener('submit', (event) => event.preventDefault());
    byId('refresh').addEventListener('click', () => void this.load());
    byId('previous-page').addEventListener('click', () => this.turn(-1));
    byId('next-page').addEventListener('click', () => this.turn(1));
    for (const header of document.querySelectorAll<HTMLElement>('#fleet-table th[data-sort]')) {
      header.querySelector('button')!.addEventListener('click', () => this.sortBy(header.dataset.sort as SortKey));
    }
    byId('csv-sensors').addEventListener('click', () => void this.downloadSensors());
    byId('csv-records').addEventListener('click', () => void this.downloadRecords());
    this.rows.addEventListener('click', (event) => {
      // A click anywhere on a row opens its sensor, as its link does from the keyboard.
      const row = (event.target as Element).closest('tr');
      if (row?.dataset.devId !== undefined && !(event.target as Element).closest('a')) this.options.openSensor(row.dataset.devId);
    });
  }

  /** Loads now, then every 30 s until stopped. */
  start(): Promise<void> {
    this.stop();
    this.timer = setInterval(() => void this.load(), REFRESH_EVERY_MS);
    return this.load();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Forgets everything shown (signing out). */
  clear(): void {
    this.stop();
    this.sensors = [];
    this.shown = [];
    this.loadedAt = undefined;
    this.rows.replaceChildren();
    byId('counts').replaceChildren();
    byId('refreshed').textContent = '';
    byId('load-error').textContent = '';
    this.search.value = '';
    this.stateFilter.value = '';
    this.sprungFilter.value = '';
    this.page = 0;
  }

  /** One load at a time: the timer and the button do not pile up requests. */
  load(): Promise<void> {
    this.loading ??= this.fetchAll().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async fetchAll(): Promise<void> {
    const error = byId('load-error');
    try {
      this.sensors = await allSensors(this.options.session);
      this.loadedAt = Date.now();
      error.textContent = '';
    } catch (failure) {
      if (!this.options.session.signedIn) return;
      const reason = failure instanceof ApiError ? failure.message : 'the service could not be reached';
      error.textContent = `Could not refresh: ${reason}${this.loadedAt === undefined ? '' : ` (showing the list of ${this.options.siteTime(this.loadedAt)})`}.`;
    }
    this.renderCounts();
    this.filter(false);
    this.renderRefreshed();
  }

  private renderRefreshed(): void {
    if (this.loadedAt === undefined) return;
    byId('refreshed').textContent =
      `Last refreshed ${this.options.siteTime(this.loadedAt)} ${this.options.zone(this.loadedAt)}; refreshes every 30 s.`;
  }

  private renderCounts(): void {
    const counts = new Map<SensorState, number>(STATES.map((state) => [state, 0]));
    let sprung = 0;
    for (const sensor of this.sensors) {
      counts.set(sensor.state, (counts.get(sensor.state) ?? 0) + 1);
      if (sensor.sprung) sprung += 1;
    }
    const item = (label: string, count: number, className: string, choose: () => void) => {
      const button = h(
        'button',
        { type: 'button', class: `count ${className}` },
        h('span', { class: 'count-label' }, label),
        h('span', { class: 'count-value' }, String(count)),
      );
      button.addEventListener('click', choose);
      return h('li', {}, button);
    };
    byId('counts').replaceChildren(
      ...STATES.map((state) =>
        item(STATE_WORDS[state], counts.get(state) ?? 0, `state-${state}`, () => {
          this.stateFilter.value = state;
          this.filter();
        }),
      ),
      item('Sprung', sprung, 'sprung', () => {
        this.sprungFilter.value = 'true';
        this.filter();
      }),
    );
  }

  private sortBy(key: SortKey): void {
    this.sort = { key, descending: this.sort.key === key ? !this.sort.descending : false };
    this.filter();
  }

  /** The sensors the filters let through, sorted; back to the first page when the filters changed. */
  private filter(resetPage = true): void {
    const search = this.search.value.trim().toLowerCase();
    const state = this.stateFilter.value;
    const sprung = this.sprungFilter.value;
    this.shown = this.sensors.filter(
      (sensor) =>
        (state === '' || sensor.state === state) &&
        (sprung === '' || String(sensor.sprung) === sprung) &&
        (search === '' || sensor.dev_id.toLowerCase().includes(search)),
    );
    this.shown.sort(this.comparator());
    if (resetPage) this.page = 0;
    this.page = Math.min(this.page, Math.max(0, Math.ceil(this.shown.length / ROWS_PER_PAGE) - 1));
    this.renderTable();
  }

  private comparator(): (a: Sensor, b: Sensor) => number {
    const { key, descending } = this.sort;
    const byDevId = (a: Sensor, b: Sensor) => (a.dev_id < b.dev_id ? -1 : a.dev_id > b.dev_id ? 1 : 0);
    const value = (sensor: Sensor): number => {
      switch (key) {
        case 'state':
          return STATE_ORDER[sensor.state];
        // Sprung first, the longest sprung first of them.
        case 'sprung':
          return sensor.sprung ? (sensor.sprung_at === null ? 0 : Date.parse(sensor.sprung_at)) : Number.POSITIVE_INFINITY;
        // Unknown voltages last.
        case 'battery':
          return sensor.last_battery_voltage === null ? Number.POSITIVE_INFINITY : Number(sensor.last_battery_voltage);
        case 'heard':
          return Date.parse(sensor.last_received);
        default:
          return 0;
      }
    };
    return (a, b) => {
      const order = key === 'dev_id' ? byDevId(a, b) : value(a) - value(b) || byDevId(a, b);
      return descending ? -order : order;
    };
  }

  private turn(by: number): void {
    const pages = Math.max(1, Math.ceil(this.shown.length / ROWS_PER_PAGE));
    this.page = Math.min(pages - 1, Math.max(0, this.page + by));
    this.renderTable();
  }

  private renderTable(): void {
    const now = Date.now();
    const first = this.page * ROWS_PER_PAGE;
    const rows = this.shown.slice(first, first + ROWS_PER_PAGE).map((sensor) => this.row(sensor, now));
    this.rows.replaceChildren(...rows);
    for (const header of document.querySelectorAll<HTMLElement>('#fleet-table th[data-sort]')) {
      if (header.dataset.sort === this.sort.key) header.setAttribute('aria-sort', this.sort.descending ? 'descending' : 'ascending');
      else header.removeAttribute('aria-sort');
    }
    const pages = Math.max(1, Math.ceil(this.shown.length / ROWS_PER_PAGE));
    const total = this.sensors.length;
    byId('fleet-caption').textContent =
      this.shown.length === total ? `${total} sensors` : `${this.shown.length} of ${total} sensors match the filters`;
    byId('page-info').textContent =
      this.shown.length === 0
        ? 'No sensors'
        : `${first + 1}–${first + rows.length} of ${this.shown.length} (page ${this.page + 1} of ${pages})`;
    byId<HTMLButtonElement>('previous-page').disabled = this.page === 0;
    byId<HTMLButtonElement>('next-page').disabled = this.page >= pages - 1;
  }

  private row(sensor: Sensor, now: number): HTMLTableRowElement {
    const heard = Date.parse(sensor.last_received);
    const row = h(
      'tr',
      { class: `state-row-${sensor.state}` },
      h('th', { scope: 'row', 'data-label': 'dev_id' }, h('a', { href: sensorHash(sensor.dev_id) }, sensor.dev_id)),
      h('td', { 'data-label': 'State' }, h('span', { class: `badge state-${sensor.state}` }, STATE_WORDS[sensor.state])),
      h('td', { 'data-label': 'Sprung' }, sprungCell(sensor, now)),
      h('td', { 'data-label': 'Battery' }, lastBatteryCell(sensor, now)),
      h(
        'td',
        { 'data-label': 'Last heard' },
        h('time', { datetime: sensor.last_received }, this.options.siteTime(heard)),
        h('span', { class: 'ago' }, timeAgo(heard, now)),
      ),
    );
    row.dataset.devId = sensor.dev_id;
    return row;
  }

  private async downloadSensors(): Promise<void> {
    const parameters = new URLSearchParams({ _format: 'csv' });
    if (this.stateFilter.value !== '') parameters.set('state', this.stateFilter.value);
    if (this.sprungFilter.value !== '') parameters.set('sprung', this.sprungFilter.value);
    await this.offer(`${SENSORS_PATH}?${parameters.toString()}`, 'sensors.csv');
  }

  private async downloadRecords(): Promise<void> {
    await this.offer(`${RECORDS_PATH}?_format=csv`, 'sensor-records.csv');
  }

  private async offer(path: string, filename: string): Promise<void> {
    try {
      download(await csv(this.options.session, path), filename);
    } catch (failure) {
      byId('load-error').textContent = `Could not download ${filename}: ${failure instanceof Error ? failure.message : String(failure)}.`;
    }
  }
}

function sensorHash(devId: string): string {
  return `#/sensors/${encodeURIComponent(devId)}`;
}
