import { parse } from 'csv-parse/sync';
import type { AlertEvent } from '../src/alerts/alert-events.js';
import { AlertEntity } from '../src/alerts/alert.entity.js';
import { SensorGaugesService } from '../src/sensor/sensor-gauges.service.js';
import { ingestCaller, obtainTokens } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { pathOf, read, report, SENSORS_URL } from './utils/read-side.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const HOUR = 3600;
const GRACE = 900;

interface SensorJson {
  dev_id: string;
  state: string;
  sprung: boolean;
  heartbeat_period: number;
  heartbeat_due: string | null;
  last_received: string;
  first_received: string;
  last_device_time: string;
  first_device_time: string;
  report_count: number;
  last_nid: number;
  last_event: string;
  last_status: string | null;
  last_battery_voltage: string | null;
  last_battery_time: string | null;
  sprung_at: string | null;
  battery_low_below: string | null;
}

/**
 * The sensors of a user and their state (docs/interface.md#sensors): kept by the submissions, judged
 * against the injected clock, which the tests move instead of waiting.
 */
describe('GET /api-sensor/sensors', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;

  const list = async (query = '', token = owner.accessToken) => {
    const response = await read(testApp.app, `${SENSORS_URL}${query}`, token).expect(200);
    return JSON.parse(response.body as string) as { sensors: SensorJson[]; next: string | null };
  };
  const sensor = async (devId = 'trap-1') => (await list()).sensors.find((found) => found.dev_id === devId)!;
  /** Moves the clock, and the owner to a token of the new time, as a device whose token ran out takes another. */
  const later = async (milliseconds: number) => {
    clock.advance(milliseconds);
    owner = { ...owner, accessToken: (await obtainTokens(testApp.app, owner.client, owner.user)).access_token };
  };
  const iso = (offsetSeconds: number) => new Date(clock.now() + offsetSeconds * 1000).toISOString().replace('.000Z', '+00:00');

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
  });

  beforeEach(async () => {
    await testApp.reset();
    owner = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('makes a sensor of the first report and counts it ok until its period and the grace have passed, then overdue', async () => {
    const nid = await report(testApp.app, owner.accessToken, { timeout: HOUR, voltage: 3.6, time: '2026-01-01T10:00:00+13:00' });
    const received = iso(0);

    expect(await sensor()).toEqual({
      dev_id: 'trap-1',
      state: 'ok',
      sprung: false,
      heartbeat_period: HOUR,
      heartbeat_due: iso(HOUR),
      last_received: received,
      first_received: received,
      last_device_time: '2026-01-01T10:00:00+13:00',
      first_device_time: '2026-01-01T10:00:00+13:00',
      report_count: 1,
      last_nid: nid,
      last_event: 'Heartbeat',
      last_status: null,
      last_battery_voltage: '3.6',
      last_battery_time: '2026-01-01T10:00:00+13:00',
      last_counter: null,
      last_tilt_sensor: null,
      sprung_at: null,
      battery_low_below: null,
    });

    await later((HOUR + GRACE) * 1000);
    expect((await sensor()).state).toBe('ok');
    await later(1000);
    expect((await sensor()).state).toBe('overdue');

    await report(testApp.app, owner.accessToken, { timeout: HOUR });
    expect(await sensor()).toMatchObject({ state: 'ok', report_count: 2, first_received: received, last_received: iso(0) });
  });

  it('keeps the last known battery voltage and when it was reported through records that carry none', async () => {
    await report(testApp.app, owner.accessToken, { time: '2026-01-01T10:00:00+13:00', voltage: 3.4 });
    await report(testApp.app, owner.accessToken, { time: '2026-01-01T11:00:00+13:00' });

    expect(await sensor()).toMatchObject({
      last_device_time: '2026-01-01T11:00:00+13:00',
      last_battery_voltage: '3.4',
      last_battery_time: '2026-01-01T10:00:00+13:00',
    });
  });

  it('counts a heartbeat period of -1 as no_heartbeat and 0 as expired, whatever the clock says', async () => {
    await report(testApp.app, owner.accessToken, { dev_id: 'silent', timeout: -1 });
    await report(testApp.app, owner.accessToken, { dev_id: 'spent', timeout: 0 });
    await later(400 * 24 * HOUR * 1000);

    expect((await list()).sensors.map((found) => [found.dev_id, found.state, found.heartbeat_due])).toEqual([
      ['silent', 'no_heartbeat', null],
      ['spent', 'expired', null],
    ]);
  });

  it('keeps the state of the latest device time when a report arrives late, but counts it as heard from', async () => {
    const latest = await report(testApp.app, owner.accessToken, {
      time: '2026-01-02T00:00:00Z',
      event: 'Heartbeat',
      status: 'Set',
      timeout: HOUR,
      voltage: 3.5,
    });
    await later(2 * HOUR * 1000);
    await report(testApp.app, owner.accessToken, {
      time: '2026-01-01T00:00:00Z',
      event: 'Sprung',
      status: 'Sprung',
      timeout: -1,
      voltage: 3.9,
    });

    expect(await sensor()).toMatchObject({
      last_nid: latest,
      last_event: 'Heartbeat',
      last_status: 'Set',
      last_battery_voltage: '3.5',
      heartbeat_period: HOUR,
      sprung: false,
      state: 'ok',
      last_received: iso(0),
      heartbeat_due: iso(HOUR),
      last_device_time: '2026-01-02T13:00:00+13:00',
      first_device_time: '2026-01-01T13:00:00+13:00',
      report_count: 2,
    });
  });

  it('takes the higher nid as the later of two reports with the same device time', async () => {
    await report(testApp.app, owner.accessToken, { event: 'Sprung', status: 'Sprung' });
    const second = await report(testApp.app, owner.accessToken, { event: 'Set', status: 'Set' });

    expect(await sensor()).toMatchObject({ last_nid: second, last_event: 'Set', sprung: false });
  });

  it('is sprung from a Sprung status until a later Set, through reports that say neither', async () => {
    const sprungAfter = async (readings: Parameters<typeof report>[2]) => {
      await report(testApp.app, owner.accessToken, readings);
      return (await sensor()).sprung;
    };

    expect(await sprungAfter({ time: '2026-01-01T01:00:00Z', event: 'Sprung', status: 'Sprung' })).toBe(true);
    expect(await sprungAfter({ time: '2026-01-01T02:00:00Z', event: 'Heartbeat' })).toBe(true);
    expect(await sprungAfter({ time: '2026-01-01T03:00:00Z', event: 'Baitlevel', status: 'Baitlevel' })).toBe(true);
    expect(await sprungAfter({ time: '2026-01-01T04:00:00Z', event: 'Set', status: 'Set' })).toBe(false);
    // A Sprung report from before that Set, arriving late, changes nothing.
    expect(await sprungAfter({ time: '2026-01-01T03:30:00Z', event: 'Sprung', status: 'Sprung' })).toBe(false);
    // The event says it when there is no status.
    expect(await sprungAfter({ time: '2026-01-01T05:00:00Z', event: 'Sprung' })).toBe(true);
  });

  it('says when the open sprung episode began, from which the 24-hour clock runs, until a Set', async () => {
    await report(testApp.app, owner.accessToken, { time: '2026-01-01T01:00:00Z', event: 'Sprung', status: 'Sprung' });
    await report(testApp.app, owner.accessToken, { time: '2026-01-01T02:00:00Z', event: 'Heartbeat' });
    expect(await sensor()).toMatchObject({ sprung: true, sprung_at: '2026-01-01T14:00:00+13:00' });

    await report(testApp.app, owner.accessToken, { time: '2026-01-01T04:00:00Z', event: 'Set', status: 'Set' });
    expect(await sensor()).toMatchObject({ sprung: false, sprung_at: null });
  });

  it("names the owner's battery_low threshold for the sensor: its own alert's or one for all sensors, the higher, never another user's", async () => {
    await report(testApp.app, owner.accessToken, { dev_id: 'trap-1', voltage: 3.4 });
    await report(testApp.app, owner.accessToken, { dev_id: 'trap-2', voltage: 3.4 });
    const other = await ingestCaller(testApp.app);
    const alerts = testApp.dataSource.getRepository(AlertEntity);
    const alert = (uid: number, devId: string | null, events: AlertEvent[], batteryBelow: string | null) =>
      alerts.save(
        alerts.create({
          uid,
          events,
          devId,
          channel: 'webhook',
          target: 'https://alerts.example.org/traps',
          format: 'json',
          secret: null,
          batteryBelow,
          baitBelow: null,
          remindAfter: 12 * HOUR,
          escalateAfter: null,
          escalateChannel: null,
          escalateTarget: null,
          created: new Date(clock.now()),
        }),
      );
    expect((await sensor('trap-1')).battery_low_below).toBeNull();

    await alert(owner.user.uid, null, ['battery_low'], '3.3');
    await alert(owner.user.uid, 'trap-1', ['battery_low'], '3.45');
    await alert(owner.user.uid, 'trap-2', ['sprung'], '3.9');
    await alert(other.user.uid, null, ['battery_low'], '3.7');

    expect((await sensor('trap-1')).battery_low_below).toBe('3.45');
    expect((await sensor('trap-2')).battery_low_below).toBe('3.3');
  });

  it('filters by state and by sprung, and pages in dev_id order with a next link', async () => {
    await report(testApp.app, owner.accessToken, { dev_id: 'a-overdue', timeout: 60 });
    await later((60 + GRACE + 1) * 1000);
    await report(testApp.app, owner.accessToken, { dev_id: 'b-ok-sprung', timeout: HOUR, event: 'Sprung', status: 'Sprung' });
    await report(testApp.app, owner.accessToken, { dev_id: 'c-silent', timeout: -1 });
    await report(testApp.app, owner.accessToken, { dev_id: 'd-spent', timeout: 0, event: 'Sprung' });
    await report(testApp.app, owner.accessToken, { dev_id: 'e-ok', timeout: HOUR });
    const names = async (query: string) => (await list(query)).sensors.map((found) => found.dev_id);

    expect(await names('?state=overdue')).toEqual(['a-overdue']);
    expect(await names('?state=ok')).toEqual(['b-ok-sprung', 'e-ok']);
    expect(await names('?state=no_heartbeat')).toEqual(['c-silent']);
    expect(await names('?state=expired')).toEqual(['d-spent']);
    expect(await names('?sprung=true')).toEqual(['b-ok-sprung', 'd-spent']);
    expect(await names('?sprung=false&state=ok')).toEqual(['e-ok']);

    const first = await read(testApp.app, `${SENSORS_URL}?limit=2&sprung=false`, owner.accessToken).expect(200);
    const page = JSON.parse(first.body as string) as { sensors: SensorJson[]; next: string };
    expect(page.sensors.map((found) => found.dev_id)).toEqual(['a-overdue', 'c-silent']);
    expect(page.next).toBe('http://localhost:3000/api-sensor/sensors?sprung=false&limit=2&after=c-silent&_format=json');
    expect(first.headers.link).toBe(`<${page.next}>; rel="next"`);
    const last = await read(testApp.app, pathOf(page.next), owner.accessToken).expect(200);
    expect(JSON.parse(last.body as string)).toMatchObject({ sensors: [{ dev_id: 'e-ok' }], next: null });
    expect(last.headers.link).toBeUndefined();
  });

  it('shows each user only their own sensors, even of the same dev_id', async () => {
    const stranger = await ingestCaller(testApp.app);
    await report(testApp.app, owner.accessToken, { dev_id: 'shared', event: 'Sprung' });
    await report(testApp.app, stranger.accessToken, { dev_id: 'shared', event: 'Set' });
    await report(testApp.app, stranger.accessToken, { dev_id: 'theirs' });

    expect((await list()).sensors.map((found) => [found.dev_id, found.sprung, found.report_count])).toEqual([['shared', true, 1]]);
    expect((await list('', stranger.accessToken)).sensors.map((found) => [found.dev_id, found.sprung])).toEqual([
      ['shared', false],
      ['theirs', false],
    ]);
    const hidden = await read(testApp.app, `${SENSORS_URL}/theirs`, owner.accessToken).expect(404);
    expect(JSON.parse(hidden.body as string)).toEqual({ message: 'You have no sensor with dev_id "theirs".' });
  });

  it("answers 404 naming the caller's sensors whose dev_id differs only in letter case", async () => {
    const stranger = await ingestCaller(testApp.app);
    await report(testApp.app, owner.accessToken, { dev_id: '70B3D57ED0061A4F' });
    await report(testApp.app, owner.accessToken, { dev_id: '70b3d57ed0061A4F' });
    await report(testApp.app, stranger.accessToken, { dev_id: '70B3d57ed0061a4f' });

    const differing = await read(testApp.app, `${SENSORS_URL}/70b3d57ed0061a4f`, owner.accessToken).expect(404);
    expect(JSON.parse(differing.body as string)).toEqual({
      message:
        'You have no sensor with dev_id "70b3d57ed0061a4f". Device ids are compared exactly, letter case included; ' +
        'yours that differ only in case: "70B3D57ED0061A4F", "70b3d57ed0061A4F".',
    });
    // Another user's sensor of that spelling is not the caller's to learn of.
    const unknown = await read(testApp.app, `${SENSORS_URL}/70B3d57ed0061a4f`, stranger.accessToken).expect(200);
    expect(JSON.parse(unknown.body as string)).toMatchObject({ sensor: { dev_id: '70B3d57ed0061a4f' } });
    const none = await read(testApp.app, `${SENSORS_URL}/70B3D57ED0061A4E`, owner.accessToken).expect(404);
    expect(JSON.parse(none.body as string)).toEqual({ message: 'You have no sensor with dev_id "70B3D57ED0061A4E".' });
  });

  it('keeps devices whose ids differ only in letter case, accents, width or a trailing space apart', async () => {
    const spellings = ['trap', 'TRAP', 'trap ', 'tràp', 'ｔｒａｐ'];
    const nids = new Map<string, number>();
    for (const [index, devId] of spellings.entries())
      nids.set(devId, await report(testApp.app, owner.accessToken, { dev_id: devId, event: index === 1 ? 'Sprung' : 'Set' }));

    const sensors = (await list()).sensors;
    expect(sensors.map((found) => [found.dev_id, found.report_count, found.sprung]).sort()).toEqual(
      spellings.map((devId) => [devId, 1, devId === 'TRAP']).sort(),
    );
    for (const devId of spellings) {
      const shown = JSON.parse(
        (await read(testApp.app, `${SENSORS_URL}/${encodeURIComponent(devId)}`, owner.accessToken).expect(200)).body as string,
      ) as {
        sensor: SensorJson;
        records: Array<{ nid: Array<{ value: number }> }>;
      };
      expect({ devId, lastNid: shown.sensor.last_nid, records: shown.records.map((record) => record.nid[0]!.value) }).toEqual({
        devId,
        lastNid: nids.get(devId),
        records: [nids.get(devId)],
      });
    }
  });

  it('refuses a caller without a valid token', async () => {
    const response = await read(testApp.app, SENSORS_URL, 'not-a-token').expect(403);

    expect(JSON.parse(response.body as string)).toEqual({ message: 'You are not authorized to view sensors.' });
  });

  it('recounts the gauges by the same rules', async () => {
    await report(testApp.app, owner.accessToken, { dev_id: 'x', timeout: 60 });
    await later((60 + GRACE + 30) * 1000);
    await testApp.app.get(SensorGaugesService).refresh();
    const metrics = await read(testApp.app, '/metrics').expect(200);

    expect(metrics.body).toContain('sensors{state="overdue"} 1');
    expect(metrics.body).toContain('sensors_oldest_overdue_seconds 30');
  });

  it('shows one sensor with its latest records, newest device time first, each as GET /node/{nid}?_format=json renders it', async () => {
    const older = await report(testApp.app, owner.accessToken, { dev_id: 'trap/7 é', time: '2026-01-01T00:00:00Z' });
    const newer = await report(testApp.app, owner.accessToken, { dev_id: 'trap/7 é', time: '2026-01-03T00:00:00Z', event: 'Sprung' });
    const middle = await report(testApp.app, owner.accessToken, { dev_id: 'trap/7 é', time: '2026-01-02T00:00:00Z' });
    await report(testApp.app, owner.accessToken, { dev_id: 'other' });
    const path = `${SENSORS_URL}/${encodeURIComponent('trap/7 é')}`;
    const node = async (nid: number) =>
      (await read(testApp.app, `/node/${nid}?_format=json`, owner.accessToken).expect(200)).body as string;

    const response = await read(testApp.app, `${path}?records=2`, owner.accessToken).expect(200);

    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toBe(
      `{"sensor":${JSON.stringify(await sensor('trap/7 é'))},"records":[${await node(newer)},${await node(middle)}]}`,
    );
    const all = JSON.parse((await read(testApp.app, path, owner.accessToken).expect(200)).body as string) as { records: unknown[] };
    expect(all.records).toEqual([JSON.parse(await node(newer)), JSON.parse(await node(middle)), JSON.parse(await node(older))]);
    expect(JSON.parse((await read(testApp.app, `${path}?records=0`, owner.accessToken).expect(200)).body as string).records).toEqual([]);
  });

  it('lists the sensors as CSV: every one without a limit, a page with one, spreadsheet formulas neutralised', async () => {
    await report(testApp.app, owner.accessToken, { dev_id: '=1+1', voltage: '-0.5', timeout: HOUR });
    await report(testApp.app, owner.accessToken, { dev_id: 'a "quoted", trap', event: 'Sprung', timeout: -1 });
    await report(testApp.app, owner.accessToken, { dev_id: 'b', timeout: 0 });

    const all = await read(testApp.app, `${SENSORS_URL}?_format=csv`, owner.accessToken).expect(200);
    const rows = parse(all.body as string) as string[][];

    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toBe('attachment; filename="sensors.csv"');
    expect(all.headers.link).toBeUndefined();
    expect(rows[0]).toEqual([
      'dev_id',
      'state',
      'sprung',
      'heartbeat_period',
      'heartbeat_due',
      'last_received',
      'first_received',
      'last_device_time',
      'first_device_time',
      'report_count',
      'last_nid',
      'last_event',
      'last_status',
      'last_battery_voltage',
      'last_battery_time',
      'last_counter',
      'last_tilt_sensor',
      'sprung_at',
      'battery_low_below',
    ]);
    expect(rows.slice(1).map((row) => [row[0], row[1], row[2], row[3], row[13]])).toEqual([
      ["'=1+1", 'ok', '0', String(HOUR), '-0.5'],
      ['a "quoted", trap', 'no_heartbeat', '1', '-1', ''],
      ['b', 'expired', '0', '0', ''],
    ]);
    expect(all.body).toContain('\r\n"a ""quoted"", trap",no_heartbeat,1,-1,,');

    const page = await read(testApp.app, `${SENSORS_URL}?_format=csv&limit=2&state=ok`, owner.accessToken).expect(200);
    expect((parse(page.body as string) as string[][]).map((row) => row[0])).toEqual(['dev_id', "'=1+1"]);
    const first = await read(testApp.app, `${SENSORS_URL}?_format=csv&limit=1`, owner.accessToken).expect(200);
    expect(first.headers.link).toBe('<http://localhost:3000/api-sensor/sensors?limit=1&after=%3D1%2B1&_format=csv>; rel="next"');
  });

  it.each([
    ['?limit=0', 'limit: This value should be between 1 and 10000.'],
    ['?limit=10001', 'limit: This value should be between 1 and 10000.'],
    ['?limit=ten', 'limit: This value should be of type integer.'],
    ['?state=asleep', 'state: The value you selected is not a valid choice (ok, overdue, no_heartbeat, expired).'],
    ['?sprung=maybe', 'sprung: This value should be true or false.'],
    ['?after=', 'after: This value should have 1 to 255 characters.'],
    ['?state=ok&state=overdue', 'state: This parameter is given more than once.'],
    ['?page=2', 'page: This parameter is not recognised.'],
    ['/trap-1?records=101', 'records: This value should be between 0 and 100.'],
    ['/trap-1?limit=5', 'limit: This parameter is not recognised.'],
  ])('answers 400 naming the parameter for %s', async (query, line) => {
    const response = await read(testApp.app, `${SENSORS_URL}${query}`, owner.accessToken).expect(400);

    expect(JSON.parse(response.body as string)).toEqual({ message: `Invalid query parameters.\n${line}\n` });
  });

  it.each([
    ['', 'csv, json'],
    ['/trap-1', 'json'],
  ])('answers 406 for a format the route does not serve (%s)', async (path, supported) => {
    const response = await read(testApp.app, `${SENSORS_URL}${path}?_format=xml&limit=0`, owner.accessToken).expect(406);

    expect(JSON.parse(response.body as string)).toEqual({
      message: `No route found for the specified format xml. Supported formats: ${supported}.`,
    });
  });
});
