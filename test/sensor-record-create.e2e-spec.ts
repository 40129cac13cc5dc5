import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { SensorRecordService } from '../src/sensor-record/sensor-record.service.js';
import { SerializationService } from '../src/serialization/serialization.service.js';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRow, storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('POST /api-sensor/iot/sensor-record (accepted reports)', () => {
  let testApp: TestApp;
  let config: AppConfig;
  let caller: Awaited<ReturnType<typeof ingestCaller>>;

  const post = (body: unknown, format = 'json') => submit(testApp.app, body, { token: caller.accessToken, format });

  beforeAll(async () => {
    testApp = await createTestApp();
    config = testApp.app.get<AppConfig>(APP_CONFIG);
  });

  beforeEach(async () => {
    await testApp.reset();
    caller = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('stores a list-shaped submission and answers 201 with the record, its Location and the stored values', async () => {
    const body = {
      _links: { type: { href: `${config.baseUrl}/rest/type/node/sensor_report` } },
      ...submissionFrom(submissionStub.trapSprung),
    };

    const response = await post(body).expect(201);

    const nid = response.body.nid[0].value as number;
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers.location).toBe(`${config.baseUrl}/node/${nid}`);
    const created = response.body.created[0].value as string;
    expect(response.body).toEqual({
      nid: [{ value: nid }],
      uuid: [{ value: expect.stringMatching(UUID_V4) }],
      vid: [{ value: nid }],
      langcode: [{ value: 'en' }],
      type: [{ target_id: 'sensor_report', target_type: 'node_type', target_uuid: expect.stringMatching(UUID_V4) }],
      revision_timestamp: [{ value: created, format: 'Y-m-d\\TH:i:sP' }],
      revision_uid: [{ target_id: caller.uid, target_type: 'user', target_uuid: caller.uuid, url: `/user/${caller.uid}` }],
      revision_log: [],
      status: [{ value: true }],
      uid: [{ target_id: caller.uid, target_type: 'user', target_uuid: caller.uuid, url: `/user/${caller.uid}` }],
      title: [{ value: 'Sensor report: 0004A30B001C1234 (2020-07-22T06:11:11.123456789+12:00)' }],
      created: [{ value: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/), format: 'Y-m-d\\TH:i:sP' }],
      changed: [{ value: created, format: 'Y-m-d\\TH:i:sP' }],
      promote: [{ value: false }],
      sticky: [{ value: false }],
      default_langcode: [{ value: true }],
      revision_translation_affected: [{ value: true }],
      path: [{ alias: null, pid: null, langcode: 'en' }],
      field_battery_voltage: [{ value: '3.6' }],
      field_counter: [{ value: 12 }],
      field_data: [],
      field_date: [{ value: '2020-07-22T06:11:11+12:00' }],
      field_event: [{ value: 'Sprung' }],
      field_gateway: [{ value: 'B8:27:EB:0A:1B:2C' }],
      field_location: [],
      field_network: [{ value: 'Traps & Baits <Wellington>' }],
      field_rssi: [{ value: -97 }],
      field_sensor_id: [{ value: '0004A30B001C1234' }],
      field_sequence: [{ value: 1234 }],
      field_snr: [{ value: '9.25' }],
      field_status: [{ value: 'Sprung' }],
      field_tilt_sensor: [{ value: 'False' }],
      field_timeout: [{ value: 3600 }],
    });

    const row = await storedRow(testApp.dataSource, nid);
    expect(row).toMatchObject({
      nid,
      vid: nid,
      uuid: response.body.uuid[0].value,
      type: 'sensor_report',
      langcode: 'en',
      status: true,
      promote: false,
      sticky: false,
      default_langcode: true,
      revision_translation_affected: true,
      revision_log: null,
      uid: caller.uid,
      revision_uid: caller.uid,
      title: response.body.title[0].value,
      created: new Date(created).toISOString(),
      changed: new Date(created).toISOString(),
      revision_timestamp: new Date(created).toISOString(),
      field_battery_voltage: 3.6,
      field_counter: 12,
      field_data: null,
      field_date: '2020-07-21T18:11:11.000Z',
      field_event: 'Sprung',
      field_gateway: 'B8:27:EB:0A:1B:2C',
      field_network: 'Traps & Baits <Wellington>',
      field_rssi: -97,
      field_sensor_id: '0004A30B001C1234',
      field_sequence: 1234,
      field_snr: 9.25,
      field_status: 'Sprung',
      field_tilt_sensor: 'False',
      field_timeout: 3600,
    });
    expect(JSON.parse(row?.request_body as string)).toEqual(body);
  });

  it('renders the stored record exactly as the POST answered it', async () => {
    const response = await post(submissionFrom(submissionStub.trapSprung), 'hal_json').expect(201);

    const model = await testApp.app.get(SensorRecordService).findByNid(response.body.nid[0].value);
    const rendered = testApp.app.get(SerializationService).render(model!, 'hal_json');
    expect(rendered.body).toBe(response.text);
    expect(response.headers['content-type']).toBe('application/hal+json');
  });

  it('reads bare members, the field_rssi/field_snr spelling and numbers sent as strings', async () => {
    const response = await post(submissionFrom(submissionStub.bare)).expect(201);

    expect(response.body).toMatchObject({
      field_sensor_id: [{ value: 'trap-17' }],
      field_date: [{ value: '2021-01-15T09:30:00+13:00' }],
      field_rssi: [{ value: -80 }],
      field_snr: [{ value: '-2.5' }],
      field_sequence: [{ value: 7 }],
      field_counter: [{ value: 0 }],
      field_battery_voltage: [{ value: '3.142' }],
      field_tilt_sensor: [{ value: 'True' }],
      field_timeout: [{ value: -1 }],
    });
    expect(await storedRow(testApp.dataSource, response.body.nid[0].value)).toMatchObject({
      field_rssi: -80,
      field_snr: -2.5,
      field_battery_voltage: 3.142,
      field_tilt_sensor: 'True',
      field_timeout: -1,
      field_date: '2021-01-14T20:30:00.000Z',
    });
  });

  it('reads members sent as single {value} objects', async () => {
    const response = await post(submissionFrom(submissionStub.objects)).expect(201);

    expect(response.body).toMatchObject({
      title: [{ value: 'Sensor report: trap-18 (2021-07-01T12:00:00Z)' }],
      field_date: [{ value: '2021-07-02T00:00:00+12:00' }],
      field_event: [{ value: 'Vibration' }],
      field_rssi: [{ value: -120 }],
      field_snr: [{ value: '7' }],
      field_tilt_sensor: [{ value: 'NotInstalled' }],
      field_timeout: [{ value: 0 }],
    });
  });

  it('stores a bait-station level report', async () => {
    const response = await post(submissionFrom(submissionStub.baitLevel)).expect(201);

    expect(response.body).toMatchObject({
      field_event: [{ value: 'Baitlevel' }],
      field_status: [{ value: 'Baitlevel' }],
      field_battery_voltage: [{ value: '3.3' }],
      field_data: [{ value: '21' }],
    });
    expect(await storedRow(testApp.dataSource, response.body.nid[0].value)).toMatchObject({
      field_event: 'Baitlevel',
      field_status: 'Baitlevel',
      field_battery_voltage: 3.3,
      field_data: 21,
    });
  });

  it('fills the defaults: a heartbeat timeout of 86400 and empty optional fields', async () => {
    const response = await post(submissionFrom(submissionStub.minimal)).expect(201);

    expect(response.body).toMatchObject({
      field_timeout: [{ value: 86400 }],
      field_battery_voltage: [],
      field_counter: [],
      field_data: [],
      field_gateway: [],
      field_network: [],
      field_rssi: [],
      field_sequence: [],
      field_snr: [],
      field_status: [],
      field_tilt_sensor: [],
    });
    expect(await storedRow(testApp.dataSource, response.body.nid[0].value)).toMatchObject({
      field_timeout: 86400,
      field_status: null,
      field_rssi: null,
      field_snr: null,
    });
  });

  it('rounds decimals half away from zero on their digits', async () => {
    const body = submissionFrom(submissionStub.minimal);
    Object.assign(body.payload_fields, { field_battery_voltage: 2.0005, field_data: '-2.0005' });
    body.metadata.gateways = [{ snr: '9999998.9995' }];

    const response = await post(body).expect(201);

    expect(response.body).toMatchObject({
      field_battery_voltage: [{ value: '2.001' }],
      field_data: [{ value: '-2.001' }],
      field_snr: [{ value: '9999999' }],
    });
    expect(await storedRow(testApp.dataSource, response.body.nid[0].value)).toMatchObject({
      field_battery_voltage: 2.001,
      field_data: -2.001,
      field_snr: 9999999,
    });
  });

  it('ignores unknown members but keeps them in the stored body', async () => {
    const body = { ...submissionFrom(submissionStub.minimal), app_id: 'ttn-app', counter: 99, payload_raw: 'AQID' };
    Object.assign(body.payload_fields, { field_unknown: [{ value: 'x' }], field_location: [{ lat: -41.3, lng: 174.8 }] });

    const response = await post(body).expect(201);

    expect(response.body).not.toHaveProperty('app_id');
    expect(response.body.field_location).toEqual([]);
    const row = await storedRow(testApp.dataSource, response.body.nid[0].value);
    expect(JSON.parse(row?.request_body as string)).toEqual(body);
  });

  it('stores identical submissions as separate records with one bundle UUID', async () => {
    const first = await post(submissionFrom(submissionStub.minimal)).expect(201);
    const second = await post(submissionFrom(submissionStub.minimal)).expect(201);

    expect(second.body.nid[0].value).not.toBe(first.body.nid[0].value);
    expect(second.body.uuid[0].value).not.toBe(first.body.uuid[0].value);
    expect(second.body.type[0].target_uuid).toBe(first.body.type[0].target_uuid);
    expect(await storedRows(testApp.dataSource)).toHaveLength(2);
  });

  it('stores concurrent submissions each in its own committed row', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(submissionFrom(submissionStub.baitLevel))));

    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const nids = responses.map((response) => response.body.nid[0].value as number);
    expect(new Set(nids).size).toBe(20);
    const rows = await storedRows(testApp.dataSource);
    expect(rows.map((row) => row.nid).sort((a, b) => Number(a) - Number(b))).toEqual([...nids].sort((a, b) => a - b));
    expect(rows.every((row) => row.vid === row.nid)).toBe(true);
  });

  it('answers in the negotiated format: hal_json by default, xml on request', async () => {
    const hal = await submit(testApp.app, submissionFrom(submissionStub.minimal), { token: caller.accessToken }).expect(201);
    const xml = await submit(testApp.app, submissionFrom(submissionStub.minimal), {
      token: caller.accessToken,
      accept: 'application/xml',
    }).expect(201);

    expect(hal.headers['content-type']).toBe('application/hal+json');
    expect(hal.body._links.type.href).toBe(`${config.baseUrl}/rest/type/node/sensor_report`);
    expect(xml.headers['content-type']).toBe('text/xml; charset=UTF-8');
    expect(xml.text).toMatch(/^<\?xml version="1.0"\?>\n<response>.*<field_event><value>Heartbeat<\/value><\/field_event>/);
  });

  it('refuses an unknown _format with 406 and stores nothing', async () => {
    const response = await post(submissionFrom(submissionStub.minimal), 'yaml').expect(406);

    expect(response.body).toEqual({ message: expect.stringContaining('No route found for the specified format yaml.') });
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });
});
