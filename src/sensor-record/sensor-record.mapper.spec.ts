import type { SensorRecordEntity } from './sensor-record.entity.js';
import { sensorRecordRowStub } from '../../test/fixtures/sensor-record-row.stub.js';
import { toSensorRecordModel } from './sensor-record.mapper.js';

const owner = { uid: 7, uuid: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b' };
const bundleUuid = 'f0e1d2c3-b4a5-4968-8776-655443322110';
const created = new Date('2026-11-21T04:35:00Z');

const row = (changes: Partial<SensorRecordEntity> = {}): SensorRecordEntity => ({
  nid: 42,
  vid: 42,
  ...sensorRecordRowStub,
  ...changes,
});

describe(toSensorRecordModel.name, () => {
  const sut = toSensorRecordModel;

  it('maps the node metadata and references', () => {
    const model = sut(row(), { owner, revisionUser: owner, bundleUuid });

    expect(model).toMatchObject({
      nid: 42,
      vid: 42,
      langcode: 'en',
      bundleUuid,
      owner,
      revisionUser: owner,
      revisionLog: null,
      status: true,
      promote: false,
      sticky: false,
      defaultLangcode: true,
      revisionTranslationAffected: true,
      path: { alias: null, pid: null, langcode: 'en' },
      created,
      changed: created,
      revisionTimestamp: created,
    });
  });

  it('gives decimals in their shortest form, from MySQL strings or SQLite numbers', () => {
    const fromMysql = sut(row(), { owner, revisionUser: owner, bundleUuid }).fields;
    const fromSqlite = sut(row({ fieldBatteryVoltage: 3.6, fieldData: 21, fieldSnr: -9.25 }), {
      owner,
      revisionUser: owner,
      bundleUuid,
    }).fields;

    for (const fields of [fromMysql, fromSqlite]) {
      expect(fields).toMatchObject({ batteryVoltage: '3.6', data: '21', snr: '-9.25' });
    }
  });

  it('keeps absent fields null and maps the rest', () => {
    const model = sut(
      row({ fieldBatteryVoltage: null, fieldData: null, fieldSnr: null, fieldRssi: null, fieldGateway: null, fieldStatus: null }),
      { owner, revisionUser: owner, bundleUuid },
    );

    expect(model.fields).toEqual({
      batteryVoltage: null,
      counter: 12,
      data: null,
      date: new Date('2020-07-21T18:11:11Z'),
      event: 'Baitlevel',
      gateway: null,
      network: 'net',
      rssi: null,
      devId: 'trap-1',
      sequence: 1234,
      snr: null,
      status: null,
      tiltSensor: 'False',
      timeout: 86400,
    });
  });

  it('never exposes the stored request body', () => {
    expect(JSON.stringify(sut(row({ requestBody: '{"secret":1}' }), { owner, revisionUser: owner, bundleUuid }))).not.toContain('secret');
  });
});
