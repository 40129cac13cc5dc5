import request from 'supertest';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRow, storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** The test run keeps the default SITE_TIMEZONE, Pacific/Auckland. */
describe('POST /api-sensor/iot/sensor-record (device time)', () => {
  let testApp: TestApp;
  let token: string;

  const reportAt = (time: unknown) => {
    const body = submissionFrom(submissionStub.minimal);
    body.metadata.time = time;
    return body;
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

  it.each([
    ['an offset', '2020-07-22T06:11:11+12:00', '2020-07-21T18:11:11.000Z', '2020-07-22T06:11:11+12:00'],
    ['another offset, without a colon', '2020-07-22T06:11:11-0300', '2020-07-22T09:11:11.000Z', '2020-07-22T21:11:11+12:00'],
    ['an hours-only offset', '2020-07-22T06:11+05', '2020-07-22T01:11:00.000Z', '2020-07-22T13:11:00+12:00'],
    ['Z', '2020-07-21T18:11:11Z', '2020-07-21T18:11:11.000Z', '2020-07-22T06:11:11+12:00'],
    ['z and a space', '2020-07-21 18:11:11z', '2020-07-21T18:11:11.000Z', '2020-07-22T06:11:11+12:00'],
    ['a nanosecond fraction', '2020-07-21T18:11:11.999999999Z', '2020-07-21T18:11:11.000Z', '2020-07-22T06:11:11+12:00'],
    ['no offset in the New Zealand winter', '2020-07-22T06:11:11', '2020-07-21T18:11:11.000Z', '2020-07-22T06:11:11+12:00'],
    ['no offset in the New Zealand summer', '2021-01-15T09:30:00', '2021-01-14T20:30:00.000Z', '2021-01-15T09:30:00+13:00'],
    ['no offset and no seconds', '2021-01-15 09:30', '2021-01-14T20:30:00.000Z', '2021-01-15T09:30:00+13:00'],
    ['a local time skipped when clocks go forward', '2021-09-26T02:30:00', '2021-09-25T14:30:00.000Z', '2021-09-26T03:30:00+13:00'],
    ['a local time repeated when clocks go back', '2021-04-04T02:30:00', '2021-04-03T13:30:00.000Z', '2021-04-04T02:30:00+13:00'],
    ['a time wrapped as [{value}]', [{ value: '2020-07-22T06:11:11Z' }], '2020-07-22T06:11:11.000Z', '2020-07-22T18:11:11+12:00'],
  ])('reads %s', async (_case, time, storedUtc, rendered) => {
    const response = await submit(testApp.app, reportAt(time), { token, format: 'json' }).expect(201);

    const submitted = Array.isArray(time) ? time[0]?.value : time;
    expect(response.body.field_date).toEqual([{ value: rendered }]);
    expect(response.body.title).toEqual([{ value: `Sensor report: trap-1 (${submitted})` }]);
    expect(await storedRow(testApp.dataSource, response.body.nid[0].value)).toMatchObject({ field_date: storedUtc });
  });

  it.each([
    ['2021-02-30T10:00:00', 'This value is not a valid datetime.'],
    ['2021-02-29T10:00:00Z', 'This value is not a valid datetime.'],
    ['2021-01-01T24:61:00', 'This value is not a valid datetime.'],
    ['2021-01-01T10:00:00+25:00', 'This value is not a valid datetime.'],
    ['2021-01-01', 'This value is not a valid datetime.'],
    ['1598076671', 'This value is not a valid datetime.'],
    ['22/07/2020 06:11', 'This value is not a valid datetime.'],
    [`2021-01-01T10:00:00.${'9'.repeat(60)}Z`, 'This value is too long. It should have 64 characters or less.'],
    [1598076671, 'This value should be of type string.'],
  ])('answers 406 to %s', async (time, reason) => {
    const response = await submit(testApp.app, reportAt(time), { token }).expect(406);

    expect(response.body).toEqual({ message: `Unprocessable Entity: validation failed.\nmetadata.time: ${reason}\n` });
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });
});

describe('POST /api-sensor/iot/sensor-record with SITE_TIMEZONE=America/New_York', () => {
  const saved = { ...process.env };
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    process.env.SITE_TIMEZONE = 'America/New_York';
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp.close();
    process.env = { ...saved };
  });

  it.each([
    ['no offset in the New York summer', '2021-07-04T12:00:00', '2021-07-04T16:00:00.000Z', '2021-07-04T12:00:00-04:00'],
    ['no offset in the New York winter', '2021-01-15 09:30', '2021-01-15T14:30:00.000Z', '2021-01-15T09:30:00-05:00'],
    ['a local time skipped when clocks go forward', '2021-03-14T02:30:00', '2021-03-14T07:30:00.000Z', '2021-03-14T03:30:00-04:00'],
    ['a local time repeated when clocks go back', '2021-11-07T01:30:00', '2021-11-07T05:30:00.000Z', '2021-11-07T01:30:00-04:00'],
    ['the first local time after clocks went back', '2021-11-07T02:00:00', '2021-11-07T07:00:00.000Z', '2021-11-07T02:00:00-05:00'],
    ['UTC', '2021-07-04T16:00:00Z', '2021-07-04T16:00:00.000Z', '2021-07-04T12:00:00-04:00'],
    ['Auckland time', '2021-07-05T04:00:00+12:00', '2021-07-04T16:00:00.000Z', '2021-07-04T12:00:00-04:00'],
  ])(
    'reads %s, stores it in UTC and renders it in New York time, on the POST and on GET /node',
    async (_case, time, storedUtc, rendered) => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.time = time;

      const created = await submit(testApp.app, body, { token, format: 'json' }).expect(201);
      const nid = created.body.nid[0].value as number;
      const read = await request(testApp.app.getHttpServer())
        .get(`/node/${nid}?_format=json`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);

      expect(created.body.field_date).toEqual([{ value: rendered }]);
      expect(read.body.field_date).toEqual([{ value: rendered }]);
      expect(created.body.title).toEqual([{ value: `Sensor report: trap-1 (${time})` }]);
      expect(await storedRow(testApp.dataSource, nid)).toMatchObject({ field_date: storedUtc });
    },
  );
});
