import request from 'supertest';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { submissionFrom, submissionStub, type SubmissionBody } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRows, submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp, UNHURRIED_DATABASE } from './utils/test-app.js';

const MAX_SUBMISSIONS = 1000;
const TWO_MIB = 2 * 1024 * 1024;

/** The submissions of one relay's buffer: every accepted shape, local and offset times, decimals as numbers and strings. */
const buffered = (): SubmissionBody[] =>
  [submissionStub.trapSprung, submissionStub.bare, submissionStub.objects, submissionStub.baitLevel, submissionStub.minimal].map(
    submissionFrom,
  );

/** `count` copies of the minimal submission, told apart by `field_sequence`. */
const numbered = (count: number, devId = 'relay-7'): SubmissionBody[] =>
  Array.from({ length: count }, (_, index) => {
    const submission = submissionFrom(submissionStub.minimal);
    submission.dev_id = devId;
    submission.payload_fields.field_sequence = index;
    return submission;
  });

interface Entry {
  nid: number;
  uuid: string;
  location: string;
}

describe('POST /api-sensor/iot/sensor-records: a batch of reports', () => {
  let testApp: TestApp;
  let caller: Awaited<ReturnType<typeof ingestCaller>>;
  let baseUrl: string;

  const server = () => testApp.app.getHttpServer();
  const read = (nid: number, format: string) =>
    request(server()).get(`/node/${nid}?_format=${format}`).set('Authorization', `Bearer ${caller.accessToken}`).expect(200);
  const rowCount = async () => (await storedRows(testApp.dataSource)).length;

  beforeAll(async () => {
    // Batches of up to 1,000 reports.
    testApp = await createTestApp({ env: UNHURRIED_DATABASE });
    baseUrl = testApp.app.get<AppConfig>(APP_CONFIG).baseUrl;
  });

  beforeEach(async () => {
    await testApp.reset();
    caller = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('a valid batch', () => {
    it("stores every report and answers one entry per report, in the reports' order, after the commit", async () => {
      const submissions = buffered();

      const response = await submitBatch(testApp.app, submissions, { token: caller.accessToken }).expect(201);

      // As the single route answers (docs/interface.md#response-formats): no charset added.
      expect(response.headers['content-type']).toBe('application/json');
      // Many records, so no one Location: each entry carries its own.
      expect(response.headers.location).toBeUndefined();
      const entries = response.body as Entry[];
      expect(entries).toHaveLength(submissions.length);
      const rows = new Map((await storedRows(testApp.dataSource)).map((row) => [row.nid, row]));
      expect(rows.size).toBe(submissions.length);
      entries.forEach((entry, index) => {
        expect(Object.keys(entry)).toEqual(['nid', 'uuid', 'location']);
        expect(entry.location).toBe(`${baseUrl}/node/${entry.nid}`);
        expect(rows.get(entry.nid)).toMatchObject({
          nid: entry.nid,
          vid: entry.nid,
          uuid: entry.uuid,
          field_sensor_id: submissions[index]!.dev_id,
        });
      });
    });

    it("keeps as each record's request body its own report", async () => {
      const submissions = buffered();

      const entries = (await submitBatch(testApp.app, submissions, { token: caller.accessToken }).expect(201)).body as Entry[];

      const rows = new Map((await storedRows(testApp.dataSource)).map((row) => [row.nid, row]));
      entries.forEach((entry, index) => expect(rows.get(entry.nid)?.request_body).toBe(JSON.stringify(submissions[index])));
    });

    it("keeps each report's text as received: its whitespace, the spelling of its numbers and a member given twice", async () => {
      const reports = [
        '{\n  "dev_id": "relay-1",\n  "metadata": {"time": "2026-02-01T10:00:00Z"},\n  "payload_fields": {"type": [{"target_id": "sensor_report"}], "field_event": [{"value": "Heartbeat"}], "field_battery_voltage": 3.60}\n}',
        '{"dev_id":"relay-2","dev_id":"relay-3","metadata":{"time":"2026-02-01T10:00:01Z"},"payload_fields":{"type":{"target_id":"sensor_report"},"field_event":"Set","field_counter":1e2,"note":"[{,}]\\""}}',
      ];
      const body = `[ ${reports[0]} ,\r\n\t${reports[1]}\n]`;

      const entries = (await submitBatch(testApp.app, body, { token: caller.accessToken }).expect(201)).body as Entry[];

      const rows = new Map((await storedRows(testApp.dataSource)).map((row) => [row.nid, row]));
      expect(entries.map((entry) => rows.get(entry.nid)?.request_body)).toEqual(reports);
      expect(entries.map((entry) => rows.get(entry.nid)?.field_sensor_id)).toEqual(['relay-1', 'relay-3']);
    });

    it('makes records that read back exactly as the same reports submitted one by one, in every format', async () => {
      const submissions = buffered();
      const entries = (await submitBatch(testApp.app, submissions, { token: caller.accessToken }).expect(201)).body as Entry[];
      const singles: number[] = [];
      for (const submission of submissions) {
        const created = await submit(testApp.app, submission, { token: caller.accessToken, format: 'json' }).expect(201);
        singles.push((created.body as { nid: [{ value: number }] }).nid[0].value);
      }
      // What differs between two records of the same report: their nid (and vid), their uuid, and the instant each was stored.
      const anonymous = (text: string, nid: number, uuid: string) =>
        text
          .replaceAll(uuid, '<uuid>')
          .replace(new RegExp(`/node/${nid}(?=\\D)`, 'g'), '/node/<nid>')
          .replace(new RegExp(`(<(?:nid|vid)><value>)${nid}(?=</value>)`, 'g'), '$1<nid>')
          .replace(new RegExp(`("(?:nid|vid)":\\[\\{"value":)${nid}(?=\\})`, 'g'), '$1<nid>')
          .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00/g, '<instant>');

      for (const format of ['json', 'hal_json', 'xml']) {
        for (const [index, entry] of entries.entries()) {
          const singleNid = singles[index]!;
          const singleUuid = (await read(singleNid, 'json')).body.uuid[0].value as string;
          const single = await read(singleNid, format);
          const fromBatch = await read(entry.nid, format);

          expect(fromBatch.headers['content-type']).toBe(single.headers['content-type']);
          expect(anonymous(fromBatch.text, entry.nid, entry.uuid)).toBe(anonymous(single.text, singleNid, singleUuid));
          expect(anonymous(fromBatch.text, entry.nid, entry.uuid)).not.toContain(entry.uuid);
        }
      }
    });

    it('takes one report, and as many as the limit, answering them in order', async () => {
      const one = (await submitBatch(testApp.app, numbered(1), { token: caller.accessToken }).expect(201)).body as Entry[];
      expect(one).toHaveLength(1);

      const submissions = numbered(MAX_SUBMISSIONS);
      const entries = (await submitBatch(testApp.app, submissions, { token: caller.accessToken }).expect(201)).body as Entry[];

      expect(entries).toHaveLength(MAX_SUBMISSIONS);
      const rows = new Map((await storedRows(testApp.dataSource)).map((row) => [row.nid, row]));
      expect(rows.size).toBe(MAX_SUBMISSIONS + 1);
      entries.forEach((entry, index) => expect(rows.get(entry.nid)).toMatchObject({ uuid: entry.uuid, field_sequence: index }));
    });

    it('accepts _format=json, and application/json as the body type', async () => {
      await submitBatch(testApp.app, numbered(2), { token: caller.accessToken, format: 'json', contentType: 'application/json' }).expect(
        201,
      );

      expect(await rowCount()).toBe(2);
    });
  });

  describe('all or nothing', () => {
    it('answers 406 listing every violation of every report under its index, and stores nothing', async () => {
      const submissions = numbered(4);
      delete submissions[1]!.dev_id;
      submissions[2]!.payload_fields.field_event = 'Exploded';
      submissions[3]!.metadata.gateways = [{ rssi: 'loud' }];

      const response = await submitBatch(testApp.app, submissions, { token: caller.accessToken }).expect(406);

      expect(response.body).toEqual({
        message:
          'Unprocessable Entity: validation failed.\n' +
          '[1].dev_id: This value should not be null.\n' +
          '[2].payload_fields.field_event: The value you selected is not a valid choice.\n' +
          '[3].metadata.gateways[0].rssi: This value should be of type integer.\n',
      });
      expect(await rowCount()).toBe(0);
    });

    it('lists at most as many violations as the single route does, counting the rest', async () => {
      const submissions = numbered(30);
      for (const submission of submissions) delete submission.dev_id;

      const response = await submitBatch(testApp.app, submissions, { token: caller.accessToken }).expect(406);

      const lines = (response.body as { message: string }).message.split('\n');
      expect(lines.slice(1, 21)).toEqual(Array.from({ length: 20 }, (_, index) => `[${index}].dev_id: This value should not be null.`));
      expect(lines.slice(21)).toEqual(['… and 10 more.', '']);
      expect(await rowCount()).toBe(0);
    });
  });

  describe('what is not a batch', () => {
    it.each([
      ['an empty list', 422, [], 'The request body must hold at least one report.'],
      ['one report not in a list', 422, submissionStub.minimal, 'The request body must be a JSON array of reports.'],
      [
        'more reports than the limit',
        413,
        numbered(MAX_SUBMISSIONS + 1),
        `The request body holds ${MAX_SUBMISSIONS + 1} reports; at most ${MAX_SUBMISSIONS} are taken at once.`,
      ],
      ['a report that is not an object', 422, [submissionStub.minimal, 'trap-1'], '[1]: The report must be a JSON object.'],
    ])('answers %s with a clear %s', async (_case, status, body, message) => {
      const response = await submitBatch(testApp.app, body, { token: caller.accessToken }).expect(status);

      expect(response.body).toEqual({ message });
      expect(await rowCount()).toBe(0);
    });

    it('answers a report whose type link names another type 422, naming the report', async () => {
      const foreign = { ...submissionStub.minimal, _links: { type: { href: 'http://example.org/rest/type/node/sensor_report' } } };

      const response = await submitBatch(testApp.app, [submissionStub.minimal, submissionStub.minimal, foreign], {
        token: caller.accessToken,
      });

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message:
          '[2]: Type http://example.org/rest/type/node/sensor_report does not correspond to an entity on this site.' +
          ' The sensor_report type here is http://localhost:3000/rest/type/node/sensor_report (BASE_URL sets its address).',
      });
    });

    it('answers a report whose _links is not HAL-shaped 422, naming the report and what it gave', async () => {
      const response = await submitBatch(testApp.app, [submissionStub.minimal, { ...submissionStub.minimal, _links: 'x' }], {
        token: caller.accessToken,
      });

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message:
          '[1]: Type "x" does not correspond to an entity on this site.' +
          ' The sensor_report type here is http://localhost:3000/rest/type/node/sensor_report (BASE_URL sets its address).',
      });
      expect(await rowCount()).toBe(0);
    });

    it('answers a report nested deeper than one report may be 422, naming the report', async () => {
      let deep: unknown = 'bottom';
      for (let level = 0; level < 16; level++) deep = [deep];
      const submission = { ...submissionStub.minimal, extra: deep };

      const response = await submitBatch(testApp.app, [submission], { token: caller.accessToken }).expect(422);

      expect(response.body).toEqual({ message: '[0]: The report is nested deeper than 16 levels.' });
    });

    it('takes a body of up to 2 MiB and refuses a larger one with 413', async () => {
      const padded = (bytes: number) => {
        const text = JSON.stringify(numbered(1));
        const submission = { ...numbered(1)[0], padding: 'x'.repeat(bytes - text.length - ',"padding":""'.length) };
        const body = JSON.stringify([submission]);
        expect(Buffer.byteLength(body)).toBe(bytes);
        return body;
      };

      await submitBatch(testApp.app, padded(TWO_MIB), { token: caller.accessToken }).expect(201);
      const response = await submitBatch(testApp.app, padded(TWO_MIB + 1), { token: caller.accessToken }).expect(413);

      expect(response.body).toEqual({ message: 'Request body is larger than the 2 MiB limit.' });
      expect(await rowCount()).toBe(1);
    });
  });

  describe('order of checks, as for one report', () => {
    it('answers a caller without a valid token 403 whatever the body', async () => {
      for (const body of ['not json', JSON.stringify(numbered(MAX_SUBMISSIONS + 1)), 'x'.repeat(TWO_MIB + 1)]) {
        const response = await submitBatch(testApp.app, body).expect(403);
        expect(response.body).toEqual(FORBIDDEN_CREATE);
      }
    });

    it('answers a user without the ingest permission 403', async () => {
      const reader = await ingestCaller(testApp.app, { ingest: false });

      const response = await submitBatch(testApp.app, numbered(2), { token: reader.accessToken }).expect(403);

      expect(response.body).toEqual(FORBIDDEN_CREATE);
      expect(await rowCount()).toBe(0);
    });

    it('refuses a _format other than json with 406 before looking at the body', async () => {
      for (const format of ['hal_json', 'yaml']) {
        const response = await submitBatch(testApp.app, 'not json', { token: caller.accessToken, format }).expect(406);
        expect(response.body).toEqual({ message: `No route found for the specified format ${format}. Supported formats: json.` });
      }
    });

    it('checks the body type before its syntax, and the syntax before the reports', async () => {
      const untyped = await submitBatch(testApp.app, numbered(1), { token: caller.accessToken, contentType: 'text/plain' }).expect(415);
      const broken = await submitBatch(testApp.app, '[{"dev_id": ', { token: caller.accessToken }).expect(422);

      expect(untyped.body).toEqual({ message: 'No route found that matches "Content-Type: text/plain"' });
      expect(broken.body).toEqual({ message: 'Syntax error' });
    });
  });

  it('answers concurrent batches and single submissions each with their own records', async () => {
    const batches = Array.from({ length: 4 }, (_, batch) => numbered(25, `relay-${batch}`));
    const singles = Array.from({ length: 20 }, (_, index) => {
      const submission = submissionFrom(submissionStub.minimal);
      submission.dev_id = `trap-${index}`;
      return submission;
    });

    const [batchAnswers, singleAnswers] = await Promise.all([
      Promise.all(batches.map((submissions) => submitBatch(testApp.app, submissions, { token: caller.accessToken }))),
      Promise.all(singles.map((submission) => submit(testApp.app, submission, { token: caller.accessToken, format: 'json' }))),
    ]);

    const rows = new Map((await storedRows(testApp.dataSource)).map((row) => [row.nid, row]));
    expect(rows.size).toBe(4 * 25 + 20);
    batchAnswers.forEach((answer, batch) => {
      expect(answer.status).toBe(201);
      (answer.body as Entry[]).forEach((entry, index) =>
        expect(rows.get(entry.nid)).toMatchObject({ uuid: entry.uuid, field_sensor_id: `relay-${batch}`, field_sequence: index }),
      );
    });
    singleAnswers.forEach((answer, index) => {
      expect(answer.status).toBe(201);
      expect(rows.get(answer.body.nid[0].value)).toMatchObject({ field_sensor_id: `trap-${index}` });
    });
  });
});
