import type { SensorRecordEntity } from './sensor-record.entity.js';
import type { SensorRecordModel, UserReference } from '../serialization/sensor-record.model.js';
import { shortestDecimal } from './values/decimal.js';

export interface SensorRecordReferences {
  owner: UserReference;
  revisionUser: UserReference;
  bundleUuid: string;
}

/** A stored row (or the row just inserted) as the record the Serialization module renders. */
export function toSensorRecordModel(row: SensorRecordEntity, references: SensorRecordReferences): SensorRecordModel {
  return {
    nid: row.nid,
    uuid: row.uuid,
    vid: row.vid ?? row.nid,
    langcode: row.langcode,
    bundleUuid: references.bundleUuid,
    revisionTimestamp: row.revisionTimestamp,
    revisionUser: references.revisionUser,
    revisionLog: row.revisionLog || null,
    status: Boolean(row.status),
    owner: references.owner,
    title: row.title,
    created: row.created,
    changed: row.changed,
    promote: Boolean(row.promote),
    sticky: Boolean(row.sticky),
    defaultLangcode: Boolean(row.defaultLangcode),
    revisionTranslationAffected: Boolean(row.revisionTranslationAffected),
    path: { alias: null, pid: null, langcode: row.langcode },
    fields: {
      batteryVoltage: shortestDecimal(row.fieldBatteryVoltage),
      counter: row.fieldCounter,
      data: shortestDecimal(row.fieldData),
      date: row.fieldDate,
      event: row.fieldEvent,
      gateway: row.fieldGateway,
      network: row.fieldNetwork,
      rssi: row.fieldRssi,
      devId: row.devId,
      sequence: row.fieldSequence,
      snr: shortestDecimal(row.fieldSnr),
      status: row.fieldStatus,
      tiltSensor: row.fieldTiltSensor,
      timeout: row.fieldTimeout,
    },
  };
}
