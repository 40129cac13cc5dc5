import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { SensorRecordInsert } from '../src/sensor-record/sensor-record-insert.js';
import { SensorRecordWriter } from '../src/sensor-record/sensor-record-writer.js';
import { SerializationService } from '../src/serialization/serialization.service.js';
import { sensorRecordRowStub } from './fixtures/sensor-record-row.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { RECORD_CSV_COLUMNS } from '../src/sensor-record-feed/record-csv.js';
import { FEED_URL, pathOf, read, report } from './utils/read-side.js';
import { describeOn } from './utils/engine.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

interface FeedJson {
  next: string;
  more: boolean;
  records: Array<{ nid: [{ value: number }] }>;
}

const utc = (instant: number) => new Date(instant).toISOString().replace('.000Z', '+00:00');

/**
 * The records feed (docs/interface.md#get-api-sensorsensor-records): the caller's records in (changed, nid)
 * order, a page at a time, only once they are settled, so that following `next` skips and repeats nothing.
 */
describe('GET /api-sensor/sensor-records', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;
  let settleMs: number;

  const feed = async (query: string, token = owner.accessToken) => {
    const response = await read(testApp.app, `${FEED_URL}${query}`, token).expect(200);
    return { response, body: JSON.parse(response.body as string) as FeedJson };
  };
  const nids = (page: FeedJson) => page.records.map((record) => record.nid[0].value);
  const settle = () => clock.advance(settleMs);

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
    settleMs = testApp.app.get<AppConfig>(APP_CONFIG).database.requestTimeoutMs + 2000;
  });

  beforeEach(async () => {
    await testApp.reset();
    owner = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it.each(['json', 'hal_json', 'xml'])('serves each record byte for byte as GET /node/{nid} renders it (%s)', async (format) => {
    const first = await report(testApp.app, owner.accessToken, {
      dev_id: 'trap-<&>',
      network: 'A & B',
      voltage: 3.6,
      rssi: -90,
      snr: '-2.5',
    });
    const second = await report(testApp.app, owner.accessToken, { dev_id: 'trap-2', event: 'Sprung', status: 'Sprung' });
    settle();

    const page = await read(testApp.app, `${FEED_URL}?_format=${format}`, owner.accessToken).expect(200);
    const node = async (nid: number) =>
      (await read(testApp.app, `/node/${nid}?_format=${format}`, owner.accessToken).expect(200)).body as string;
    const [one, two] = [await node(first), await node(second)];
    const body = page.body as string;

    expect(page.headers['content-type']).toBe(
      (await read(testApp.app, `/node/${first}?_format=${format}`, owner.accessToken)).headers['content-type'],
    );
    if (format === 'xml') {
      const inner = (document: string) => document.slice('<?xml version="1.0"?>\n<response>'.length, -'</response>\n'.length);
      expect(body).toMatch(
        /^<\?xml version="1.0"\?>\n<response><next><!\[CDATA\[http:\/\/localhost:3000\/api-sensor\/sensor-records\?changed_since=.*\]\]><\/next><more>0<\/more><records>/,
      );
      expect(body).toContain(`<records>${inner(one)}</records><records>${inner(two)}</records></response>\n`);
    } else {
      expect(body).toContain(`[${one},${two}]`);
      const parsed = JSON.parse(body) as Record<string, unknown>;
      const list = format === 'json' ? parsed.records : (parsed._embedded as { item: unknown }).item;
      expect(list).toEqual([JSON.parse(one), JSON.parse(two)]);
    }
  });

  it('serves a record only once it is settled, and names the next page after what it served', async () => {
    const created = clock.now();
    const nid = await report(testApp.app, owner.accessToken);

    clock.advance(settleMs - 1);
    const early = await feed('?_format=json');
    expect(early.body).toEqual({
      next: `http://localhost:3000/api-sensor/sensor-records?changed_since=${encodeURIComponent(utc(created))}&_format=json`,
      more: false,
      records: [],
    });
    expect(early.response.headers.link).toBe(`<${early.body.next}>; rel="next"`);

    clock.advance(1);
    const settled = await feed(`?_format=json`);
    expect(nids(settled.body)).toEqual([nid]);
    expect(settled.body.next).toBe(
      `http://localhost:3000/api-sensor/sensor-records?changed_since=${encodeURIComponent(utc(created + 1000))}&_format=json`,
    );
    expect(nids((await feed(pathOf(settled.body.next).slice(FEED_URL.length))).body)).toEqual([]);
  });

  it('pages by (changed, nid) without skipping or repeating a record while new ones arrive between pages', async () => {
    const submitted: number[] = [];
    const start = clock.now();
    for (const second of [0, 0, 0, 1, 2]) {
      clock.advance(second * 1000);
      submitted.push(await report(testApp.app, owner.accessToken));
    }
    settle();
    const seen: number[] = [];
    let path = `${FEED_URL}?limit=2&_format=json`;
    const follow = async () => {
      const page = (await feed(path.slice(FEED_URL.length))).body;
      seen.push(...nids(page));
      path = pathOf(page.next);
      return page;
    };

    expect(await follow()).toMatchObject({ more: true });
    expect(path).toBe(`${FEED_URL}?changed_since=${encodeURIComponent(utc(start))}&changed_since_nid=${submitted[1]}&limit=2&_format=json`);
    for (let i = 0; i < 3; i++) submitted.push(await report(testApp.app, owner.accessToken));
    expect(await follow()).toMatchObject({ more: true });
    submitted.push(await report(testApp.app, owner.accessToken));
    expect(await follow()).toMatchObject({ more: false });
    expect(seen).toEqual(submitted.slice(0, 5));

    settle();
    while ((await follow()).more);
    expect(nids(await follow())).toEqual([]);
    expect(seen).toEqual(submitted);
  });

  it("never shows another user's records", async () => {
    const stranger = await ingestCaller(testApp.app);
    const mine = await report(testApp.app, owner.accessToken, { dev_id: 'shared' });
    const theirs = await report(testApp.app, stranger.accessToken, { dev_id: 'shared' });
    settle();

    expect(nids((await feed('?_format=json')).body)).toEqual([mine]);
    expect(nids((await feed('?_format=json', stranger.accessToken)).body)).toEqual([theirs]);
  });

  it('exports the CSV columns= names, in that order, and keeps them in the next export', async () => {
    const nid = await report(testApp.app, owner.accessToken, {
      dev_id: 'trap-7',
      event: 'Sprung',
      voltage: 3.6,
      time: '2026-01-01T10:00:00+13:00',
    });
    settle();

    const response = await read(
      testApp.app,
      `${FEED_URL}?_format=csv&columns=field_sensor_id,field_date,field_event,field_battery_voltage,nid`,
      owner.accessToken,
    ).expect(200);

    expect(parse(response.body as string)).toEqual([
      ['field_sensor_id', 'field_date', 'field_event', 'field_battery_voltage', 'nid'],
      ['trap-7', '2026-01-01T10:00:00+13:00', 'Sprung', '3.6', String(nid)],
    ]);
    expect(response.headers.link).toMatch(
      /^<http:\/\/localhost:3000\/api-sensor\/sensor-records\?changed_since=[^>]*&columns=field_sensor_id%2Cfield_date%2Cfield_event%2Cfield_battery_voltage%2Cnid&_format=csv>; rel="next"$/,
    );
  });

  it('exports CSV: a header, one line per record, fields quoted as RFC 4180 says and formulas neutralised', async () => {
    const nid = await report(testApp.app, owner.accessToken, {
      dev_id: '=HYPERLINK("http://x","y")',
      network: '-1+2, "quoted"',
      voltage: 3.6,
      rssi: -97,
      snr: '-2.5',
      event: 'Sprung',
      time: '2026-01-01T10:00:00+13:00',
    });
    await report(testApp.app, owner.accessToken, { dev_id: '@trap', network: '+64 21 555' });
    settle();

    const response = await read(testApp.app, `${FEED_URL}?_format=csv`, owner.accessToken).expect(200);
    const text = response.body as string;
    const rows = parse(text) as string[][];

    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers.link).toMatch(
      /^<http:\/\/localhost:3000\/api-sensor\/sensor-records\?changed_since=.*&_format=csv>; rel="next"$/,
    );
    expect(text.split('\r\n')).toHaveLength(4);
    expect(rows[0]).toEqual([
      'nid',
      'uuid',
      'vid',
      'langcode',
      'type',
      'revision_timestamp',
      'revision_uid',
      'revision_log',
      'status',
      'uid',
      'title',
      'created',
      'changed',
      'promote',
      'sticky',
      'default_langcode',
      'revision_translation_affected',
      'path',
      'field_battery_voltage',
      'field_counter',
      'field_data',
      'field_date',
      'field_event',
      'field_gateway',
      'field_location',
      'field_network',
      'field_rssi',
      'field_sensor_id',
      'field_sequence',
      'field_snr',
      'field_status',
      'field_tilt_sensor',
      'field_timeout',
    ]);
    const record = Object.fromEntries(rows[0]!.map((column, index) => [column, rows[1]![index]]));
    expect(record).toMatchObject({
      nid: String(nid),
      type: 'sensor_report',
      uid: String(owner.uid),
      status: '1',
      promote: '0',
      revision_log: '',
      path: '',
      title: 'Sensor report: =HYPERLINK("http://x","y") (2026-01-01T10:00:00+13:00)',
      field_sensor_id: `'=HYPERLINK("http://x","y")`,
      field_network: `'-1+2, "quoted"`,
      field_battery_voltage: '3.6',
      field_rssi: '-97',
      field_snr: '-2.5',
      field_date: '2026-01-01T10:00:00+13:00',
      field_event: 'Sprung',
      field_status: '',
      field_timeout: '86400',
    });
    expect(text).toContain(`,"'-1+2, ""quoted""",-97,`);
    expect(rows[2]).toEqual(expect.arrayContaining([`'@trap`, `'+64 21 555`]));
  });

  it('streams a whole export in chunks, in order, a CSV with a limit as a page, and pages of 1,000 by default', async () => {
    const writer = testApp.app.get(SensorRecordWriter);
    const created = new Date(clock.now());
    const written = await Promise.all(
      Array.from({ length: 1203 }, (_, index) =>
        writer.write({
          ...sensorRecordRowStub,
          uuid: randomUUID(),
          uid: owner.uid,
          revisionUid: owner.uid,
          created,
          changed: created,
          fieldSequence: index,
        }),
      ),
    );
    settle();

    const all = parse((await read(testApp.app, `${FEED_URL}?_format=csv`, owner.accessToken).expect(200)).body as string) as string[][];
    expect(all.slice(1).map((row) => Number(row[0]))).toEqual([...written].sort((a, b) => a - b));

    const page = await read(testApp.app, `${FEED_URL}?_format=csv&limit=1000`, owner.accessToken).expect(200);
    const pageRows = parse(page.body as string) as string[][];
    expect(pageRows).toHaveLength(1001);
    expect(page.headers.link).toBe(
      `<http://localhost:3000/api-sensor/sensor-records?changed_since=${encodeURIComponent(utc(created.getTime()))}&changed_since_nid=${pageRows[1000]![0]}&limit=1000&_format=csv>; rel="next"`,
    );

    const byDefault = JSON.parse((await read(testApp.app, `${FEED_URL}?_format=json`, owner.accessToken).expect(200)).body as string) as {
      records: Array<{ nid: Array<{ value: number }> }>;
      more: unknown;
    };
    expect(byDefault.records.map((record) => record.nid[0]!.value)).toEqual(pageRows.slice(1).map((row) => Number(row[0])));
    expect(byDefault.more).toBe(true);
  });

  it('serves other requests while it renders a large page', async () => {
    const writer = testApp.app.get(SensorRecordWriter);
    const created = new Date(clock.now());
    const count = 2000;
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        writer.write({
          ...sensorRecordRowStub,
          uuid: randomUUID(),
          uid: owner.uid,
          revisionUid: owner.uid,
          created,
          changed: created,
          fieldSequence: index,
        }),
      ),
    );
    settle();
    const rendered = jest.spyOn(testApp.app.get(SerializationService), 'render');
    await testApp.app.listen(0, '127.0.0.1');
    const server = testApp.app.getHttpServer() as Server;
    const port = (server.address() as AddressInfo).port;
    let renderedWhenHealthArrived: number | undefined;
    server.on('request', (request: IncomingMessage) => {
      if (request.url === '/health') renderedWhenHealthArrived = rendered.mock.calls.length;
    });

    // The health check is sent once the page's first bytes are in, while the rest is still being rendered.
    const page = await new Promise<{ body: string; health: number }>((resolve, reject) => {
      let health: Promise<number> | undefined;
      const chunks: Buffer[] = [];
      const call = httpGet(
        {
          host: '127.0.0.1',
          port,
          path: `${FEED_URL}?limit=${count}&_format=xml`,
          headers: { Authorization: `Bearer ${owner.accessToken}` },
        },
        (response) => {
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            health ??= fetch(`http://127.0.0.1:${port}/health`).then((answer) => answer.status);
          });
          response.on(
            'end',
            () => void health!.then((status) => resolve({ body: Buffer.concat(chunks).toString('utf8'), health: status })),
          );
        },
      );
      call.on('error', reject);
    });

    expect(page.health).toBe(200);
    expect(page.body.match(/<records>/g)).toHaveLength(count);
    expect(renderedWhenHealthArrived).toBeGreaterThan(0);
    expect(renderedWhenHealthArrived).toBeLessThan(count);
  });

  it('reads changed_since as metadata.time is read, a + sent unencoded and the space form included', async () => {
    const nid = await report(testApp.app, owner.accessToken);
    settle();
    const created = new Date(clock.now() - settleMs);
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Pacific/Auckland', dateStyle: 'short', timeStyle: 'medium' }).format(
      created,
    );

    for (const since of [
      utc(created.getTime()).replace('+', '%2B'),
      utc(created.getTime()),
      local.replace(' ', 'T'),
      `${local.replace(' ', 'T')}.999`,
      // The device time syntax's space between date and time, encoded or sent as a +, to the second or the minute.
      local.replace(' ', '%20'),
      local.replace(' ', '+'),
      local.slice(0, 16).replace(' ', '%20'),
      local.slice(0, 16).replace(' ', '+'),
    ]) {
      expect(nids((await feed(`?_format=json&changed_since=${since}`)).body)).toEqual([nid]);
    }
    expect(nids((await feed(`?_format=json&changed_since=${utc(created.getTime() + 1000).replace('+', '%2B')}`)).body)).toEqual([]);
    expect(
      nids((await feed(`?_format=json&changed_since=${utc(created.getTime()).replace('+', '%2B')}&changed_since_nid=${nid}`)).body),
    ).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit: This value should be between 1 and 10000.'],
    ['limit=10001', 'limit: This value should be between 1 and 10000.'],
    ['limit=1.5', 'limit: This value should be of type integer.'],
    ['limit=', 'limit: This value should be of type integer.'],
    ['changed_since=yesterday', 'changed_since: This value is not a valid datetime.'],
    ['changed_since=2026-02-30T00:00:00Z', 'changed_since: This value is not a valid datetime.'],
    ['changed_since_nid=5', 'changed_since_nid: This parameter needs changed_since.'],
    ['changed_since=2026-01-01T00:00:00Z&changed_since_nid=-1', 'changed_since_nid: This value should be between 0 and 2147483647.'],
    ['limit=99999999999', 'limit: This value should be between 1 and 10000.'],
    ['limit=%2B5', 'limit: This value should be of type integer.'],
    ['limit=5&limit=6', 'limit: This parameter is given more than once.'],
    ['changed_sinse=2026-01-01T00:00:00Z', 'changed_sinse: This parameter is not recognised.'],
    ['limit=0&since=1', 'since: This parameter is not recognised.\nlimit: This value should be between 1 and 10000.'],
    [
      '_format=csv&columns=field_sensor_id,temperature,field_date,Field_Event',
      `columns: Unknown field name(s): temperature, Field_Event. The fields: ${RECORD_CSV_COLUMNS.join(', ')}.`,
    ],
    ['_format=csv&columns=field_event,field_date,field_event', 'columns: field_event is named more than once.'],
    ['_format=csv&columns=', 'columns: Name at least one field.'],
    ['_format=json&columns=field_event', 'columns: This parameter is for _format=csv only.'],
  ])('answers 400 naming the parameter for %s', async (query, lines) => {
    const response = await read(testApp.app, `${FEED_URL}?${query}`, owner.accessToken).expect(400);

    expect(JSON.parse(response.body as string)).toEqual({ message: `Invalid query parameters.\n${lines}\n` });
  });

  it('answers 406 for an unknown _format, before looking at the other parameters', async () => {
    const response = await read(testApp.app, `${FEED_URL}?_format=yaml&limit=0`, owner.accessToken).expect(406);

    expect(JSON.parse(response.body as string)).toEqual({
      message: 'No route found for the specified format yaml. Supported formats: csv, hal_json, json, xml.',
    });
  });

  it('takes the format from Accept when there is no _format, hal_json by default', async () => {
    expect((await read(testApp.app, FEED_URL, owner.accessToken, 'text/csv').expect(200)).headers['content-type']).toBe(
      'text/csv; charset=utf-8',
    );
    expect((await read(testApp.app, FEED_URL, owner.accessToken).expect(200)).headers['content-type']).toBe('application/hal+json');
  });

  it('refuses a caller without a valid token', async () => {
    const response = await read(testApp.app, FEED_URL).expect(403);

    expect(JSON.parse(response.body as string)).toEqual({ message: 'You are not authorized to view sensor records.' });
  });

  describeOn('mysql', 'while a record with a lower nid is still being written', () => {
    it('serves neither it nor the records after it until it is settled, so that following next does not skip it', async () => {
      const runner = testApp.dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      const changed = new Date(clock.now());
      try {
        // As a batch of the writer leaves its rows while its COMMIT is on the way: inserted, not yet visible.
        await new SensorRecordInsert(testApp.dataSource).run(runner.manager, [
          { ...sensorRecordRowStub, uuid: randomUUID(), uid: owner.uid, revisionUid: owner.uid, created: changed, changed },
        ]);
        const [{ late }] = (await runner.query('SELECT LAST_INSERT_ID() AS late')) as [{ late: string }];
        const early = await report(testApp.app, owner.accessToken);
        expect(early).toBeGreaterThan(Number(late));

        clock.advance(settleMs - 1);
        const before = (await feed('?_format=json')).body;
        expect(before.records).toEqual([]);
        expect(before.next).toContain(`changed_since=${encodeURIComponent(utc(changed.getTime()))}&_format=json`);

        await runner.commitTransaction();
        clock.advance(1);
        expect(nids((await feed(pathOf(before.next).slice(FEED_URL.length))).body)).toEqual([Number(late), early]);
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    });
  });
});
