import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { createIntegration, postTtsUplink, type TestIntegration, withMember } from './utils/integration-api.js';
import { reportBody } from './utils/read-side.js';
import { storedRows, submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** The JSON text of `body`, the string "@" in it written as the bare number `written`. */
const withNumber = (body: unknown, written: string) => JSON.stringify(body).replace('"@"', written);

/** Written with more digits than a double holds, and what they round to; 2.0005, the nearest double to the second, rounds to 2.001. */
const ROUNDED: Array<[written: string, stored: number]> = [
  ['3.29999999999999999999999', 3.3],
  ['2.00049999999999999999', 2],
];
/** Beyond the range as given, though its nearest double, 9999999, is not. */
const BEYOND = '9999999.00000000000000001';
const RANGE = 'This value should be between -9999999 and 9999999.';

/**
 * A decimal sent as a JSON number with more digits than a double holds is read on the digits it is
 * written with, as a numeric string is (docs/interface.md#validation), on every route that takes
 * readings: the range as given, rounded to three places on its decimal digits.
 */
describe('A JSON number with more digits than a double holds', () => {
  let testApp: TestApp;
  let token: string;
  let integration: TestIntegration;

  const voltages = async () => (await storedRows(testApp.dataSource)).map((row) => row.field_battery_voltage);
  const report = () => reportBody({ voltage: '@' });
  const uplink = () => withMember(ttsUplinkStub.threeGateways, 'uplink_message.decoded_payload.battery_voltage', '@');

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
    integration = await createIntegration(testApp.app, { network: 'tts' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('POST /api-sensor/iot/sensor-record', () => {
    it.each(ROUNDED)('stores %s as %p', async (written, stored) => {
      const response = await submit(testApp.app, withNumber(report(), written), { token, format: 'json' }).expect(201);

      expect(response.body.field_battery_voltage).toEqual([{ value: String(stored) }]);
      expect(await voltages()).toEqual([stored]);
    });

    it(`refuses ${BEYOND}`, async () => {
      const response = await submit(testApp.app, withNumber(report(), BEYOND), { token }).expect(406);

      expect(response.body).toEqual({
        message: `Unprocessable Entity: validation failed.\npayload_fields.field_battery_voltage: ${RANGE}\n`,
      });
      expect(await voltages()).toEqual([]);
    });

    it('refuses 86400.00000000000000000001 as field_timeout, no integer as given', async () => {
      const body = reportBody();
      (body.payload_fields as Record<string, unknown>).field_timeout = [{ value: '@' }];

      const response = await submit(testApp.app, withNumber(body, '86400.00000000000000000001'), { token }).expect(406);

      expect(response.body).toEqual({
        message: 'Unprocessable Entity: validation failed.\npayload_fields.field_timeout: This value should be of type integer.\n',
      });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });
  });

  describe('POST /api-sensor/iot/sensor-records', () => {
    it.each(ROUNDED)('stores %s as %p', async (written, stored) => {
      await submitBatch(testApp.app, withNumber([report()], written), { token }).expect(201);

      expect(await voltages()).toEqual([stored]);
    });

    it(`refuses ${BEYOND}`, async () => {
      const response = await submitBatch(testApp.app, withNumber([report()], BEYOND), { token }).expect(406);

      expect(response.body).toEqual({
        message: `Unprocessable Entity: validation failed.\n[0].payload_fields.field_battery_voltage: ${RANGE}\n`,
      });
      expect(await voltages()).toEqual([]);
    });
  });

  describe('POST /api-sensor/integrations/tts/uplink', () => {
    it.each(ROUNDED)('stores %s as %p', async (written, stored) => {
      await postTtsUplink(testApp.app, withNumber(uplink(), written), integration.apiKey).expect(201);

      expect(await voltages()).toEqual([stored]);
    });

    it(`refuses ${BEYOND}`, async () => {
      const response = await postTtsUplink(testApp.app, withNumber(uplink(), BEYOND), integration.apiKey).expect(202);

      expect(response.body).toMatchObject({
        message: expect.stringContaining(`\nuplink_message.decoded_payload.battery_voltage: ${RANGE}\n`),
        reason: 'invalid_readings',
      });
      expect(await voltages()).toEqual([]);
    });
  });
});
