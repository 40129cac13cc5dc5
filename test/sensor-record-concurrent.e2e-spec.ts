import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const SUBMISSIONS = 64;

/**
 * However the writer groups concurrent submissions into transactions (shown in
 * src/sensor-record/sensor-record-writer.spec.ts), each is answered with its own record, stored as sent.
 */
describe('POST /api-sensor/iot/sensor-record from many devices at once', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers each submission with its own nid, whose stored row is that submission', async () => {
    const { accessToken } = await ingestCaller(testApp.app);
    const bodies = Array.from({ length: SUBMISSIONS }, (_, index) => {
      const body = submissionFrom(submissionStub.trapSprung);
      body.dev_id = `device-${index}`;
      body.payload_fields.field_sequence = [{ value: index }];
      return body;
    });

    const responses = await Promise.all(bodies.map((body) => submit(testApp.app, body, { token: accessToken, format: 'json' })));

    expect(responses.map((response) => response.status)).toEqual(Array(SUBMISSIONS).fill(201));
    const rowsByNid = new Map((await storedRows(testApp.dataSource)).map((row) => [row.nid, row]));
    expect(rowsByNid.size).toBe(SUBMISSIONS);
    responses.forEach((response, index) => {
      const nid = response.body.nid[0].value as number;
      expect(response.body.field_sequence).toEqual([{ value: index }]);
      expect(rowsByNid.get(nid)).toMatchObject({
        nid,
        vid: nid,
        uuid: response.body.uuid[0].value,
        field_sensor_id: `device-${index}`,
        field_sequence: index,
      });
    });
  });
});
