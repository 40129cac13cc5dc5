import type { SensorReportEntity } from './sensor-report.entity.js';
import type { SensorReportModel, UserReference } from './sensor-report.model.js';
import { shortestDecimal } from './values/decimal.js';

export interface SensorReportReferences {
  owner: UserReference;
  revisionUser: UserReference;
  bundleUuid: string;
}

/** A stored row (or the row just inserted) as the record the Serialization module renders. */
export function toSensorReportModel(row: SensorReportEntity, references: SensorReportReferences): SensorReportModel {
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
      sensorId: row.fieldSensorId,
      sequence: row.fieldSequence,
      snr: shortestDecimal(row.fieldSnr),
      status: row.fieldStatus,
      tiltSensor: row.fieldTiltSensor,
      timeout: row.fieldTimeout,
    },
  };
}
