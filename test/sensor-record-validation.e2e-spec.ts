import { submissionFrom, submissionStub, type SubmissionBody } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRow, storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const failure = (...lines: string[]) => ({
  message: `Unprocessable Entity: validation failed.\n${lines.map((line) => `${line}\n`).join('')}`,
});
const FORBIDDEN = { message: 'You are not authorized to create this node entity of bundle sensor_report.' };

/** The minimal report with one payload member set (or removed, with `undefined`). */
const withPayload = (member: string, value: unknown): SubmissionBody => {
  const body = submissionFrom(submissionStub.minimal);
  if (value === undefined) delete body.payload_fields[member];
  else body.payload_fields[member] = value;
  return body;
};

describe('POST /api-sensor/iot/sensor-record (validation)', () => {
  let testApp: TestApp;
  let token: string;

  const expectRefused = async (body: unknown, expected: { message: string }) => {
    const response = await submit(testApp.app, body, { token }).expect(406);
    expect(response.body).toEqual(expected);
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('required members', () => {
    it.each([
      ['dev_id', (body: SubmissionBody) => delete body.dev_id],
      ['metadata', (body: SubmissionBody) => delete (body as Partial<SubmissionBody>).metadata],
      ['metadata.time', (body: SubmissionBody) => delete body.metadata.time],
      ['payload_fields', (body: SubmissionBody) => delete (body as Partial<SubmissionBody>).payload_fields],
      ['payload_fields.type', (body: SubmissionBody) => delete body.payload_fields.type],
      ['payload_fields.field_event', (body: SubmissionBody) => delete body.payload_fields.field_event],
    ])('answers 406 naming %s when it is missing', async (path, remove) => {
      const body = submissionFrom(submissionStub.minimal);
      remove(body);

      await expectRefused(body, failure(`${path}: This value should not be null.`));
    });

    it('treats null, an empty list and a null value as missing', async () => {
      const body = submissionFrom(submissionStub.minimal);
      body.dev_id = null;
      body.metadata.time = [];
      body.payload_fields.field_event = [{ value: null }];

      await expectRefused(
        body,
        failure(
          'dev_id: This value should not be null.',
          'metadata.time: This value should not be null.',
          'payload_fields.field_event: This value should not be null.',
        ),
      );
    });
  });

  describe('enumerations', () => {
    it.each([
      ['field_event', [{ value: 'Open' }]],
      ['field_event', 'sprung'],
      ['field_status', [{ value: 'Heartbeat' }]],
      ['field_tilt_sensor', [{ value: 'Tilted' }]],
      ['field_tilt_sensor', 'true'],
      ['type', [{ target_id: 'article' }]],
    ])('refuses %s = %j', async (member, value) => {
      await expectRefused(withPayload(member, value), failure(`payload_fields.${member}: The value you selected is not a valid choice.`));
    });
  });

  describe('formats and ranges', () => {
    it.each([
      ['field_gateway', 'This value is not a valid MAC address.', 'B8:27:EB:0A:1B'],
      ['field_gateway', 'This value is not a valid MAC address.', 'B8-27-EB-0A-1B-2C'],
      ['field_gateway', 'This value is not a valid MAC address.', 'G8:27:EB:0A:1B:2C'],
      ['field_sequence', 'This value should be between 0 and 2147483647.', -1],
      ['field_sequence', 'This value should be between 0 and 2147483647.', 2147483648],
      ['field_sequence', 'This value should be of type integer.', 1.5],
      ['field_counter', 'This value should be of type integer.', '12a'],
      ['field_counter', 'This value should be of type integer.', true],
      ['field_timeout', 'This value should be between -1 and 2147483647.', -2],
      ['field_battery_voltage', 'This value should be of type numeric.', 'NaN'],
      ['field_battery_voltage', 'This value should be between -9999999 and 9999999.', 10000000],
      // The range is the value's as given, before it is rounded to three places.
      ['field_battery_voltage', 'This value should be between -9999999 and 9999999.', '9999999.0004'],
      ['field_data', 'This value should be between -9999999 and 9999999.', '-9999999.5'],
      ['field_data', 'This collection should contain exactly 1 element.', [{ value: 1 }, { value: 2 }]],
      ['field_network', 'This value is too long. It should have 255 characters or less.', 'x'.repeat(256)],
      ['field_network', 'This value should not contain control characters.', 'line\nbreak'],
      ['field_network', 'This value should be of type string.', 42],
    ])('refuses %s: %s', async (member, reason, value) => {
      await expectRefused(withPayload(member, value), failure(`payload_fields.${member}: ${reason}`));
    });

    it.each([
      ['This value should not be blank.', ''],
      ['This value is too long. It should have 255 characters or less.', 'd'.repeat(256)],
      ['This value should not contain control characters.', 'dev\u0000id'],
      ['This value should not contain control characters.', 'dev\ud800id'],
      ['This value should be of type string.', 1234],
    ])('refuses dev_id: %s', async (reason, devId) => {
      await expectRefused({ ...submissionFrom(submissionStub.minimal), dev_id: devId }, failure(`dev_id: ${reason}`));
    });

    it('accepts the limits of each range', async () => {
      const body = submissionFrom(submissionStub.minimal);
      Object.assign(body.payload_fields, {
        field_sequence: 2147483647,
        field_counter: '0',
        field_timeout: -1,
        field_battery_voltage: -9999999,
        field_data: '9999999',
        field_network: 'n'.repeat(255),
      });
      body.dev_id = '🐀'.repeat(255);
      body.metadata.gateways = [{ rssi: -2147483648, snr: '-9999998.9995' }];

      const response = await submit(testApp.app, body, { token, format: 'json' }).expect(201);

      const stored = await storedRow(testApp.dataSource, response.body.nid[0].value);
      expect(stored).toMatchObject({
        field_sequence: 2147483647,
        field_counter: 0,
        field_timeout: -1,
        field_battery_voltage: -9999999,
        field_data: 9999999,
        field_network: 'n'.repeat(255),
        field_sensor_id: '🐀'.repeat(255),
        field_rssi: -2147483648,
        field_snr: -9999999,
      });
      expect(response.body).toMatchObject({
        field_sequence: [{ value: 2147483647 }],
        field_counter: [{ value: 0 }],
        field_timeout: [{ value: -1 }],
        field_battery_voltage: [{ value: '-9999999' }],
        field_data: [{ value: '9999999' }],
        field_rssi: [{ value: -2147483648 }],
        field_snr: [{ value: '-9999999' }],
      });
    });

    it('names gateway members by the spelling and position submitted', async () => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.gateways = [{ rssi: 2147483648, snr: 'loud' }, { field_rssi: 'weak', field_snr: [] }, 'gw-3'];

      await expectRefused(
        body,
        failure(
          'metadata.gateways[0].rssi: This value should be between -2147483648 and 2147483647.',
          'metadata.gateways[0].snr: This value should be of type numeric.',
          'metadata.gateways[1].field_rssi: This value should be of type integer.',
          'metadata.gateways[2]: This value should be of type object.',
        ),
      );
    });
  });

  it('lists every violation in one message', async () => {
    const body = {
      dev_id: '',
      metadata: { time: 'yesterday', gateways: {} },
      payload_fields: {
        type: 'node',
        field_status: 'Open',
        field_gateway: 'nope',
        field_counter: -5,
        field_tilt_sensor: 1,
      },
    };

    await expectRefused(
      body,
      failure(
        'dev_id: This value should not be blank.',
        'metadata.time: This value is not a valid datetime.',
        'metadata.gateways: This value should be of type array.',
        'payload_fields.type: The value you selected is not a valid choice.',
        'payload_fields.field_event: This value should not be null.',
        'payload_fields.field_status: The value you selected is not a valid choice.',
        'payload_fields.field_gateway: This value is not a valid MAC address.',
        'payload_fields.field_counter: This value should be between 0 and 2147483647.',
        'payload_fields.field_tilt_sensor: The value you selected is not a valid choice.',
      ),
    );
  });

  describe('gateways', () => {
    it.each([
      ['an empty list', [[]]],
      ['a list of a gateway', [[{ rssi: -97 }]]],
      ['a list of lists', [[[{ rssi: 'loud' }]]]],
      ['null', [null]],
    ])('answers 406 to a gateway that is %s instead of an object', async (_case, gateways) => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.gateways = gateways;

      await expectRefused(body, failure('metadata.gateways[0]: This value should be of type object.'));
    });

    it('accepts 100 gateways and stores the first', async () => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.gateways = Array.from({ length: 100 }, (_, index) => ({ rssi: -index, snr: index }));

      const response = await submit(testApp.app, body, { token, format: 'json' }).expect(201);

      expect(response.body).toMatchObject({ field_rssi: [{ value: 0 }], field_snr: [{ value: '0' }] });
    });

    it.each([101, 10_000])('answers 406 to %i gateways, naming the list alone', async (count) => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.gateways = Array.from({ length: count }, () => ({}));

      await expectRefused(body, failure('metadata.gateways: This collection should contain 100 elements or less.'));
    });

    it("lists the other members' violations beside a list that is too long", async () => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.gateways = Array.from({ length: 101 }, () => ({}));
      body.dev_id = '';

      await expectRefused(
        body,
        failure('dev_id: This value should not be blank.', 'metadata.gateways: This collection should contain 100 elements or less.'),
      );
    });
  });

  it('lists the first 20 violations and counts the rest', async () => {
    const body = submissionFrom(submissionStub.minimal);
    body.metadata.gateways = Array.from({ length: 30 }, () => ({ rssi: 'loud' }));

    await expectRefused(
      body,
      failure(
        ...Array.from({ length: 20 }, (_, index) => `metadata.gateways[${index}].rssi: This value should be of type integer.`),
        '… and 10 more.',
      ),
    );
  });

  it('answers 406 for containers of the wrong type', async () => {
    await expectRefused(
      { dev_id: 'x', metadata: 'now', payload_fields: [] },
      failure('metadata: This value should be of type object.', 'payload_fields: This value should be of type object.'),
    );
  });

  describe('authorization comes first', () => {
    it.each([
      ['no token', undefined],
      ['a malformed token', 'not-a-jwt'],
    ])('answers 403 with %s, even for an invalid body, and stores nothing', async (_case, badToken) => {
      for (const [body, contentType] of [
        [{ dev_id: '' }, 'application/hal+json'],
        ['{not json', 'application/hal+json'],
        [{ ...submissionFrom(submissionStub.minimal), _links: { type: { href: 'http://elsewhere/x' } } }, 'application/hal+json'],
        [submissionFrom(submissionStub.minimal), 'text/plain'],
        [submissionFrom(submissionStub.minimal), 'application/hal+json'],
      ] as const) {
        const response = await submit(testApp.app, body, { token: badToken, contentType }).expect(403);
        expect(response.body).toEqual(FORBIDDEN);
      }
      expect(await storedRows(testApp.dataSource)).toHaveLength(0);
    });

    it.each([
      ['no token', undefined],
      ['a malformed token', 'not-a-jwt'],
    ])('answers 403 with %s to a body over the size limit, and 413 only to a valid token', async (_case, badToken) => {
      const oversized = JSON.stringify({ ...submissionFrom(submissionStub.minimal), padding: 'p'.repeat(70_000) });

      const refused = await submit(testApp.app, oversized, { token: badToken }).expect(403);
      const tooLarge = await submit(testApp.app, oversized, { token }).expect(413);

      expect(refused.body).toEqual(FORBIDDEN);
      expect(tooLarge.body).toEqual({ message: 'Request body is larger than the 64 KiB limit.' });
      expect(await storedRows(testApp.dataSource)).toHaveLength(0);
    });

    it('answers 403 to a user without the ingest permission', async () => {
      const reader = await ingestCaller(testApp.app, { ingest: false });

      const response = await submit(testApp.app, { dev_id: '' }, { token: reader.accessToken }).expect(403);

      expect(response.body).toEqual(FORBIDDEN);
      expect(await storedRows(testApp.dataSource)).toHaveLength(0);
    });
  });
});
