import request from 'supertest';
import { LOG_DESTINATION } from '../src/logging/logging.module.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { createClient, obtainTokens } from './utils/auth-fixtures.js';
import { createIntegration, postTtsUplink, type TestIntegration, withMember } from './utils/integration-api.js';
import { storedRows } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const TIMESTAMP_FORMAT = 'Y-m-d\\TH:i:sP';

/** The json rendering of a stored record, every member, for a record of `integration`'s user. */
function expectedRecord(integration: TestIntegration, fields: Record<string, unknown[]>, title: string) {
  const user = {
    target_id: integration.user.uid,
    target_type: 'user',
    target_uuid: integration.user.uuid,
    url: `/user/${integration.user.uid}`,
  };
  const timestamp = [{ value: expect.stringMatching(INSTANT), format: TIMESTAMP_FORMAT }];
  return {
    nid: [{ value: expect.any(Number) }],
    uuid: [{ value: expect.any(String) }],
    vid: [{ value: expect.any(Number) }],
    langcode: [{ value: 'en' }],
    type: [{ target_id: 'sensor_report', target_type: 'node_type', target_uuid: expect.any(String) }],
    revision_timestamp: timestamp,
    revision_uid: [user],
    revision_log: [],
    status: [{ value: true }],
    uid: [user],
    title: [{ value: title }],
    created: timestamp,
    changed: timestamp,
    promote: [{ value: false }],
    sticky: [{ value: false }],
    default_langcode: [{ value: true }],
    revision_translation_affected: [{ value: true }],
    path: [{ alias: null, pid: null, langcode: 'en' }],
    field_battery_voltage: [],
    field_counter: [],
    field_data: [],
    field_date: [],
    field_event: [],
    field_gateway: [],
    field_location: [],
    field_network: [],
    field_rssi: [],
    field_sensor_id: [],
    field_sequence: [],
    field_snr: [],
    field_status: [],
    field_tilt_sensor: [],
    field_timeout: [],
    ...fields,
  };
}

/**
 * The Things Stack's webhooks post uplink messages straight to the service with an integration key:
 * each becomes one record of the integration's user, mapped member by member, once.
 */
describe('POST /api-sensor/integrations/tts/uplink', () => {
  const written: string[] = [];
  let testApp: TestApp;
  let integration: TestIntegration;

  const nidOf = (body: { nid: [{ value: number }] }) => body.nid[0].value;
  const logLines = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  const savedLevel = process.env.LOG_LEVEL;

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'info';
    testApp = await createTestApp({
      override: (builder) => builder.overrideProvider(LOG_DESTINATION).useValue({ write: (line: string) => written.push(line) }),
    });
  });

  beforeEach(async () => {
    await testApp.reset();
    integration = await createIntegration(testApp.app, { network: 'tts' });
    written.length = 0;
  });

  afterAll(async () => {
    await testApp.close();
    process.env.LOG_LEVEL = savedLevel;
  });

  describe('an uplink heard by three gateways', () => {
    it('stores it and answers 201 with the record as JSON, every member mapped from the uplink', async () => {
      const response = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);

      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers.location).toBe(`http://localhost:3000/node/${nidOf(response.body)}`);
      expect(response.body).toEqual(
        expectedRecord(
          integration,
          {
            // The device's DevEUI; the time of the first gateway with GPS time (the second), in the site's zone.
            field_sensor_id: [{ value: '70B3D57ED0061A4F' }],
            field_date: [{ value: '2026-03-04T21:15:02+13:00' }],
            // The readings the payload formatter decoded, named without their field_ prefix.
            field_event: [{ value: 'Sprung' }],
            field_status: [{ value: 'Sprung' }],
            field_counter: [{ value: 12 }],
            field_battery_voltage: [{ value: '3.61' }],
            field_tilt_sensor: [{ value: 'False' }],
            field_timeout: [{ value: 3600 }],
            // The first gateway: its MAC (from an EUI-64 with FFFE in the middle), RSSI and SNR.
            field_gateway: [{ value: 'B8:27:EB:8A:1B:2C' }],
            field_rssi: [{ value: -97 }],
            field_snr: [{ value: '9.25' }],
            field_network: [{ value: 'The Things Stack' }],
            field_sequence: [{ value: 1842 }],
          },
          'Sensor report: 70B3D57ED0061A4F (2026-03-04T08:15:02.401034Z)',
        ),
      );
    });

    it('keeps the uplink as received, the integration and the uplink key with the row', async () => {
      const text = JSON.stringify(ttsUplinkStub.threeGateways, null, 2);

      const response = await postTtsUplink(testApp.app, text, integration.apiKey).expect(201);

      const [row] = await storedRows(testApp.dataSource);
      expect(row).toMatchObject({
        nid: nidOf(response.body),
        uid: integration.user.uid,
        request_body: text,
        integration_id: integration.integrationId,
        uplink_key: `${integration.user.uid}:tts:70B3D57ED0061A4F:AY4NbcVyQm9hcVpHSw5Fmw==:1842`,
        field_date: '2026-03-04T08:15:02.000Z',
      });
    });

    it("is the user's record: the user reads it back with an access token", async () => {
      const created = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);
      const tokens = await obtainTokens(testApp.app, await createClient(testApp.app), integration.user);

      const read = await request(testApp.app.getHttpServer())
        .get(`/node/${nidOf(created.body)}?_format=json`)
        .set('Authorization', `Bearer ${tokens.access_token}`)
        .expect(200);

      expect(read.body).toEqual(created.body);
    });
  });

  it('takes dev_id from the device id and field_network from the label when the integration says so', async () => {
    const named = await createIntegration(testApp.app, { network: 'tts', devIdSource: 'name', label: 'Wellington traps' });

    const response = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, named.apiKey).expect(201);

    expect(response.body).toMatchObject({
      title: [{ value: 'Sensor report: trap-0417 (2026-03-04T08:15:02.401034Z)' }],
      field_sensor_id: [{ value: 'trap-0417' }],
      field_network: [{ value: 'Wellington traps' }],
    });
  });

  it("reads a 3.2x uplink: keyed by its as:up correlation id, the network server's time, no MAC from a non-MAC EUI, field_ names", async () => {
    const response = await postTtsUplink(testApp.app, ttsUplinkStub.legacyCorrelationIds, integration.apiKey).expect(201);

    expect(response.body).toEqual(
      expectedRecord(
        integration,
        {
          field_sensor_id: [{ value: '0004A30B001C5678' }],
          // No gateway with GPS time: the network server's reception time.
          field_date: [{ value: '2023-05-12T07:42:07+12:00' }],
          field_event: [{ value: 'Baitlevel' }],
          field_status: [{ value: 'Baitlevel' }],
          field_battery_voltage: [{ value: '3.55' }],
          field_data: [{ value: '21.5' }],
          field_timeout: [{ value: 86400 }],
          field_rssi: [{ value: -104 }],
          field_snr: [{ value: '6.8' }],
          field_network: [{ value: 'The Things Stack' }],
          field_sequence: [{ value: 377 }],
        },
        'Sensor report: 0004A30B001C5678 (2023-05-11T19:42:07.757164121Z)',
      ),
    );
    const [row] = await storedRows(testApp.dataSource);
    expect(row!.uplink_key).toBe(`${integration.user.uid}:tts:as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB`);
  });

  describe('the same uplink delivered again', () => {
    it('answers 200 with the record stored the first time, and stores nothing more', async () => {
      const first = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);

      const again = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(200);

      expect(again.body).toEqual(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      expect(await storedRows(testApp.dataSource)).toHaveLength(1);
    });

    it('is the same uplink whatever the case of its DevEUI', async () => {
      const lowerCase = structuredClone(ttsUplinkStub.threeGateways);
      lowerCase.end_device_ids.dev_eui = lowerCase.end_device_ids.dev_eui.toLowerCase();

      const first = await postTtsUplink(testApp.app, lowerCase, integration.apiKey).expect(201);
      const again = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(200);

      expect(nidOf(again.body)).toBe(nidOf(first.body));
      const rows = await storedRows(testApp.dataSource);
      expect(rows.map((row) => row.uplink_key)).toEqual([`${integration.user.uid}:tts:70B3D57ED0061A4F:AY4NbcVyQm9hcVpHSw5Fmw==:1842`]);
    });

    it('stores exactly one row when 20 copies arrive at once, and answers every one with a 2xx and that record', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey)),
      );

      const rows = await storedRows(testApp.dataSource);
      expect(rows).toHaveLength(1);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 200)).toHaveLength(19);
      expect(new Set(answers.map((answer) => nidOf(answer.body)))).toEqual(new Set([rows[0]!.nid]));
    });

    it("through another user's integration is that user's own record: a key never reaches another user's record", async () => {
      const other = await createIntegration(testApp.app, { network: 'tts' });

      const mine = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);
      const theirs = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, other.apiKey).expect(201);

      expect(nidOf(theirs.body)).not.toBe(nidOf(mine.body));
      expect(theirs.body.uid[0].target_id).toBe(other.user.uid);
      expect((await storedRows(testApp.dataSource)).map((row) => row.uid)).toEqual([integration.user.uid, other.user.uid]);
    });
  });

  describe('an uplink that cannot become a record: 202, nothing stored, logged and counted', () => {
    const refusals = async () => (await request(testApp.app.getHttpServer()).get('/metrics').expect(200)).text;

    it('a simulated uplink', async () => {
      const response = await postTtsUplink(testApp.app, ttsUplinkStub.simulated, integration.apiKey).expect(202);

      expect(response.body).toEqual({ message: 'A simulated uplink is acknowledged and not stored.', reason: 'simulated' });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });

    it('an uplink without decoded payload, with the device and reason in the log and the metric', async () => {
      const response = await postTtsUplink(testApp.app, ttsUplinkStub.withoutDecodedPayload, integration.apiKey).expect(202);

      expect(response.body).toEqual({
        message:
          'The uplink has no decoded payload (uplink_message.decoded_payload): give the end device or application an uplink payload formatter' +
          ' that returns the readings, e.g. {"event": "Sprung", "battery_voltage": 3.61}. Nothing was stored.',
        reason: 'no_decoded_payload',
      });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
      expect(logLines()).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: expect.stringMatching(
            new RegExp(
              `^Uplink of device "70B3D57ED0061A4F" through integration ${integration.integrationId} \\(tts\\) not stored, no_decoded_payload: `,
            ),
          ),
        }),
      );
      const labels = `integration="${integration.integrationId}",network="tts"`;
      expect(await refusals()).toMatch(new RegExp(`^integration_uplinks_refused_total\\{${labels},reason="no_decoded_payload"\\} 1$`, 'm'));
      expect(await refusals()).toMatch(new RegExp(`^integration_uplinks_total\\{${labels},outcome="refused"\\} 1$`, 'm'));
    });

    it('readings that fail validation, each violation named where it is in the uplink', async () => {
      const uplink = structuredClone(ttsUplinkStub.threeGateways);
      Object.assign(uplink.uplink_message, { decoded_payload: { event: 'Tripped', battery_voltage: 'flat', field_timeout: -5 } });
      Object.assign(uplink.uplink_message.rx_metadata[0]!, { snr: 'good' });

      const response = await postTtsUplink(testApp.app, uplink, integration.apiKey).expect(202);

      expect(response.body).toEqual({
        message:
          'The uplink cannot become a sensor record; nothing was stored.\n' +
          'uplink_message.rx_metadata[0].snr: This value should be of type numeric.\n' +
          'uplink_message.decoded_payload.event: The value you selected is not a valid choice.\n' +
          'uplink_message.decoded_payload.battery_voltage: This value should be of type numeric.\n' +
          'uplink_message.decoded_payload.field_timeout: This value should be between -1 and 2147483647.\n' +
          'Readings are taken from uplink_message.decoded_payload by these names, each also as field_<name>:' +
          ' event, status, counter, battery_voltage, tilt_sensor, timeout, data; e.g. {"event": "Sprung", "battery_voltage": 3.61}.\n',
        reason: 'invalid_readings',
      });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });

    it('a device without DevEUI when dev_id is the DevEUI', async () => {
      const uplink = structuredClone(ttsUplinkStub.threeGateways);
      delete (uplink.end_device_ids as Partial<typeof uplink.end_device_ids>).dev_eui;

      const response = await postTtsUplink(testApp.app, uplink, integration.apiKey).expect(202);

      expect(response.body.message).toBe(
        'The uplink cannot become a sensor record; nothing was stored.\n' +
          'end_device_ids.dev_eui: This value should not be null.\n' +
          'A device without a DevEUI (activated by personalization, ABP) is named by its device id' +
          ' (end_device_ids.device_id) through an integration made with --dev-id name:' +
          ' node dist/cli.js integration:create --user <user> --network tts --dev-id name\n',
      );
    });

    it('readings under names the service does not read: the names it reads, and the members it ignored', async () => {
      const uplink = structuredClone(ttsUplinkStub.threeGateways);
      Object.assign(uplink.uplink_message, { decoded_payload: { temperature: 12.5, detected: true, battery_voltage: 3.6 } });

      const response = await postTtsUplink(testApp.app, uplink, integration.apiKey).expect(202);

      expect(response.body).toEqual({
        message:
          'The uplink cannot become a sensor record; nothing was stored.\n' +
          'uplink_message.decoded_payload.event: This value should not be null.\n' +
          'Readings are taken from uplink_message.decoded_payload by these names, each also as field_<name>:' +
          ' event, status, counter, battery_voltage, tilt_sensor, timeout, data;' +
          ' e.g. {"event": "Sprung", "battery_voltage": 3.61}. Ignored there: temperature, detected.\n',
        reason: 'invalid_readings',
      });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });
  });

  it('acknowledges a message other than an uplink with 200 and stores nothing', async () => {
    const response = await postTtsUplink(testApp.app, ttsUplinkStub.joinAccept, integration.apiKey).expect(200);

    expect(response.body).toEqual({
      message: 'A "join_accept" message is acknowledged and not stored: only uplink messages become sensor records.',
    });
    expect(await storedRows(testApp.dataSource)).toEqual([]);
  });

  describe('a body that is not a JSON message of The Things Stack', () => {
    it.each([
      [
        'Protocol Buffers',
        415,
        'application/octet-stream',
        'Cg8KDXRyYXAtMDQxNw==',
        'The Things Stack sent Protocol Buffers: set the webhook format to JSON.',
      ],
      ['no Content-Type', 415, null, '{}', 'No "Content-Type" request header specified'],
      ['text', 415, 'text/plain', '{}', 'No route found that matches "Content-Type: text/plain"'],
      ['not JSON', 422, 'application/json', '{"end_device_ids":', 'Syntax error'],
      ['a list', 422, 'application/json', '[]', 'The request body must be a JSON object.'],
      [
        'another JSON object',
        422,
        'application/json',
        '{"hello":"world"}',
        'The body is not a message of The Things Stack: it has no end_device_ids object.',
      ],
    ])('%s: %i', async (_case, status, contentType, body, message) => {
      await postTtsUplink(testApp.app, body, integration.apiKey, contentType).expect(status, { message });
    });

    it.each([
      ['uplink_message', 'str', 'an object'],
      ['uplink_message', null, 'an object'],
      ['uplink_message.rx_metadata', 'x', 'a list'],
      ['uplink_message.rx_metadata[1]', 7, 'an object'],
      ['uplink_message.rx_metadata[0].gateway_ids.eui', ['B827EBFFFE8A1B2C'], 'a string'],
      ['end_device_ids.dev_eui', ['70B3D57ED0061A4F'], 'a string'],
      ['end_device_ids.device_id', { id: 'trap-0417' }, 'a string'],
      ['uplink_message.decoded_payload', 'Sprung', 'an object'],
      ['uplink_message.session_key_id', 5, 'a string'],
      ['correlation_ids', 'as:up:01', 'a list'],
      ['simulated', 'false', 'true or false'],
    ])('%s as %j: 422 naming the member, nothing stored', async (path, value, expected) => {
      const uplink = withMember(ttsUplinkStub.threeGateways, path, value);

      await postTtsUplink(testApp.app, uplink, integration.apiKey).expect(422, {
        message: `The body is not a message of The Things Stack: ${path} is not ${expected}.`,
      });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });

    it('over 64 KiB: 413', async () => {
      await postTtsUplink(testApp.app, 'x'.repeat(64 * 1024 + 1), integration.apiKey).expect(413, {
        message: 'Request body is larger than the 64 KiB limit.',
      });
    });
  });

  it('counts uplinks received, stored and duplicate by integration and network', async () => {
    await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);
    await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(200);

    const metrics = (await request(testApp.app.getHttpServer()).get('/metrics').expect(200)).text;

    const labels = `integration="${integration.integrationId}",network="tts"`;
    expect(metrics).toMatch(new RegExp(`^integration_uplinks_received_total\\{${labels}\\} 2$`, 'm'));
    expect(metrics).toMatch(new RegExp(`^integration_uplinks_total\\{${labels},outcome="stored"\\} 1$`, 'm'));
    expect(metrics).toMatch(new RegExp(`^integration_uplinks_total\\{${labels},outcome="duplicate"\\} 1$`, 'm'));
  });
});
