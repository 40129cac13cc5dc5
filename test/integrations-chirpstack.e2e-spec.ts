import { chirpstackEventStub } from './fixtures/chirpstack-event.stub.js';
import { createIntegration, postChirpstackEvent, type TestIntegration, withMember } from './utils/integration-api.js';
import { storedRows } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * ChirpStack's HTTP integration posts every event of an application to one address, naming it in
 * `?event=`: each `up` event becomes one record of the integration's user, once; the others are
 * acknowledged.
 */
describe('POST /api-sensor/integrations/chirpstack', () => {
  let testApp: TestApp;
  let integration: TestIntegration;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    integration = await createIntegration(testApp.app, { network: 'chirpstack' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('?event=up', () => {
    it('stores the uplink and answers 201 with the record, mapped member by member', async () => {
      const response = await postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.up, integration.apiKey).expect(201);

      expect(response.headers['content-type']).toBe('application/json');
      expect(response.body).toMatchObject({
        uid: [{ target_id: integration.user.uid, target_uuid: integration.user.uuid }],
        // The GNSS time of the first gateway that has one (the second), quoted as ChirpStack wrote it.
        title: [{ value: 'Sensor report: 0004A30B001C1234 (2026-03-04T08:15:02.401034+00:00)' }],
        field_sensor_id: [{ value: '0004A30B001C1234' }],
        field_date: [{ value: '2026-03-04T21:15:02+13:00' }],
        // The codec's output, named with the field_ prefix.
        field_event: [{ value: 'Baitlevel' }],
        field_status: [{ value: 'Baitlevel' }],
        field_battery_voltage: [{ value: '3.55' }],
        field_data: [{ value: '21.5' }],
        field_counter: [],
        field_tilt_sensor: [],
        field_timeout: [{ value: 86400 }],
        // The first gateway.
        field_gateway: [{ value: 'B8:27:EB:8A:1B:2C' }],
        field_rssi: [{ value: -101 }],
        field_snr: [{ value: '7.2' }],
        field_network: [{ value: 'ChirpStack' }],
        field_sequence: [{ value: 377 }],
      });
      const [row] = await storedRows(testApp.dataSource);
      expect(row).toMatchObject({
        nid: response.body.nid[0].value,
        request_body: JSON.stringify(chirpstackEventStub.up),
        integration_id: integration.integrationId,
        uplink_key: `${integration.user.uid}:chirpstack:3ac7e3c4-4401-4b8d-9386-a5c902f9202d`,
      });
    });

    it('without a GNSS gateway, takes the time of the event; with --dev-id name, the device name', async () => {
      const named = await createIntegration(testApp.app, { network: 'chirpstack', devIdSource: 'name' });
      const up = structuredClone(chirpstackEventStub.up);
      up.rxInfo = [up.rxInfo[0]!] as typeof up.rxInfo;

      const response = await postChirpstackEvent(testApp.app, 'up', up, named.apiKey).expect(201);

      expect(response.body).toMatchObject({
        title: [{ value: 'Sensor report: bait-0092 (2026-03-04T08:15:02.448791+00:00)' }],
        field_sensor_id: [{ value: 'bait-0092' }],
      });
    });

    it('answers a repeated deduplicationId with 200 and the record stored first', async () => {
      const first = await postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.up, integration.apiKey).expect(201);

      const again = await postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.up, integration.apiKey).expect(200);

      expect(again.body).toEqual(first.body);
      expect(await storedRows(testApp.dataSource)).toHaveLength(1);
    });

    it('stores exactly one row when 20 copies of a new uplink arrive at once, and answers every one with a 2xx and that record', async () => {
      const copies = await Promise.all(
        Array.from({ length: 20 }, () => postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.up, integration.apiKey)),
      );

      const rows = await storedRows(testApp.dataSource);
      expect(rows).toHaveLength(1);
      const statuses = copies.map((copy) => copy.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 200)).toHaveLength(19);
      const stored = copies.find((copy) => copy.status === 201)!.body;
      for (const copy of copies) expect(copy.body).toEqual(stored);
      expect(stored.nid).toEqual([{ value: rows[0]!.nid }]);
    });

    it('acknowledges an uplink without codec output with 202 and stores nothing', async () => {
      const response = await postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.upWithoutObject, integration.apiKey).expect(202);

      expect(response.body).toEqual({
        message:
          'The uplink has no decoded payload (object): give the device profile a codec that returns the readings,' +
          ' e.g. {"event": "Sprung", "battery_voltage": 3.61}. Nothing was stored.',
        reason: 'no_decoded_payload',
      });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });

    it('names invalid readings by their place in the event', async () => {
      const up = structuredClone(chirpstackEventStub.up);
      Object.assign(up, { object: { field_status: 'Open' }, fCnt: -3 });

      const response = await postChirpstackEvent(testApp.app, 'up', up, integration.apiKey).expect(202);

      expect(response.body.message).toBe(
        'The uplink cannot become a sensor record; nothing was stored.\n' +
          'object.event: This value should not be null.\n' +
          'object.field_status: The value you selected is not a valid choice.\n' +
          'fCnt: This value should be between 0 and 2147483647.\n' +
          'Readings are taken from object by these names, each also as field_<name>:' +
          ' event, status, counter, battery_voltage, tilt_sensor, timeout, data; e.g. {"event": "Sprung", "battery_voltage": 3.61}.\n',
      );
    });
  });

  it.each([
    ['join', 'join', chirpstackEventStub.join],
    ['status', 'status', chirpstackEventStub.status],
    ['an event of a later version', 'geolocation', { deviceInfo: chirpstackEventStub.join.deviceInfo }],
  ])('acknowledges %s with 200 and stores nothing', async (_case, event, body) => {
    const response = await postChirpstackEvent(testApp.app, event, body, integration.apiKey).expect(200);

    expect(response.body).toEqual({
      message: `A "${event}" event is acknowledged and not stored: only "up" events become sensor records.`,
    });
    expect(await storedRows(testApp.dataSource)).toEqual([]);
  });

  it('names a long event by its first 32 characters, control characters shown escaped', async () => {
    const event = `geolocation\nof-a-later-version-${'x'.repeat(40)}`;

    const response = await postChirpstackEvent(
      testApp.app,
      event,
      { deviceInfo: chirpstackEventStub.join.deviceInfo },
      integration.apiKey,
    ).expect(200);

    // 32 characters of the event: "geolocation", the line feed, then 20 more.
    expect(response.body).toEqual({
      message: 'A "geolocation\\u000aof-a-later-version-x" event is acknowledged and not stored: only "up" events become sensor records.',
    });
    expect(await storedRows(testApp.dataSource)).toEqual([]);
  });

  it.each([
    [
      'Protobuf',
      415,
      'up',
      'application/octet-stream',
      'CiQzYWM3ZTNjNC00NDAxLTRiOGQ=',
      "ChirpStack sent Protobuf: set the HTTP integration's payload encoding (marshaler) to JSON.",
    ],
    [
      'no event',
      400,
      undefined,
      'application/json',
      '{}',
      'The query parameter "event" is missing: ChirpStack names each event in it (?event=up).',
    ],
    [
      'event given twice',
      400,
      { query: 'event=up&event=join' },
      'application/json',
      '{}',
      'The query parameter "event" is given more than once: ChirpStack names one event in it (?event=up).',
    ],
    [
      'event under a bracketed name',
      400,
      { query: 'event[a]=up' },
      'application/json',
      '{}',
      'The query parameter "event" is not one plain value: ChirpStack names one event in it (?event=up).',
    ],
    [
      'event beside a bracketed one',
      400,
      { query: 'event=up&event[a]=x' },
      'application/json',
      '{}',
      'The query parameter "event" is not one plain value: ChirpStack names one event in it (?event=up).',
    ],
    [
      'not an uplink event',
      422,
      'up',
      'application/json',
      '{"time":"2026-03-04T08:15:02Z"}',
      'The body is not a ChirpStack uplink event: it has no deviceInfo object.',
    ],
  ])('refuses %s: %i', async (_case, status, event, contentType, body, message) => {
    await postChirpstackEvent(testApp.app, event, body, integration.apiKey, contentType).expect(status, { message });
  });

  it('quotes the event it acknowledges on one line, control characters escaped', async () => {
    const response = await postChirpstackEvent(testApp.app, 'jo\nin\u0007', chirpstackEventStub.join, integration.apiKey).expect(200);

    expect(response.body).toEqual({
      message: 'A "jo\\u000ain\\u0007" event is acknowledged and not stored: only "up" events become sensor records.',
    });
  });

  it.each([
    ['rxInfo', 'notalist', 'a list'],
    ['rxInfo[0]', 'gw', 'an object'],
    ['rxInfo[0].gatewayId', 1, 'a string'],
    ['deviceInfo.devEui', ['x'], 'a string'],
    ['deviceInfo.deviceName', null, 'a string'],
    ['object', [{ event: 'Sprung' }], 'an object'],
    ['deduplicationId', 42, 'a string'],
  ])('refuses an up event with %s as %j: 422 naming the member, nothing stored', async (path, value, expected) => {
    const up = withMember(chirpstackEventStub.up, path, value);

    await postChirpstackEvent(testApp.app, 'up', up, integration.apiKey).expect(422, {
      message: `The body is not a ChirpStack uplink event: ${path} is not ${expected}.`,
    });
    expect(await storedRows(testApp.dataSource)).toEqual([]);
  });
});
