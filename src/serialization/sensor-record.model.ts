/** The Drupal bundle (content type) every sensor record is of: in the type link, `type.target_id` and the table name. */
export const SENSOR_REPORT_BUNDLE = 'sensor_report';

/** A user as node references name it: `uid`, `revision_uid`. */
export interface UserReference {
  uid: number;
  uuid: string;
}

/**
 * A stored sensor record with its node and revision metadata: what the SensorRecord module produces
 * and the Serialization module renders (json, hal_json, xml). It lives here, with its renderer, so
 * that the dependency runs one way: sensor-record → serialization. Decimals are already in their
 * shortest text form (`"3.6"`, `"21"`); instants are `Date`s, rendered per format.
 */
export interface SensorRecordModel {
  nid: number;
  uuid: string;
  vid: number;
  langcode: string;
  /** UUID of the `sensor_report` bundle: one per installation, the same on every record. */
  bundleUuid: string;
  revisionTimestamp: Date;
  revisionUser: UserReference;
  revisionLog: string | null;
  status: boolean;
  owner: UserReference;
  title: string;
  created: Date;
  changed: Date;
  promote: boolean;
  sticky: boolean;
  defaultLangcode: boolean;
  revisionTranslationAffected: boolean;
  path: { alias: string | null; pid: number | null; langcode: string };
  fields: SensorRecordFields;
}

interface SensorRecordFields {
  batteryVoltage: string | null;
  counter: number | null;
  data: string | null;
  /** The device's `metadata.time` as an instant; rendered in the site time zone. */
  date: Date;
  event: string;
  gateway: string | null;
  network: string | null;
  rssi: number | null;
  devId: string;
  sequence: number | null;
  snr: string | null;
  status: string | null;
  tiltSensor: string | null;
  timeout: number;
}
