import { SENSOR_REPORT_BUNDLE } from './sensor-record.model.js';

/** `_links.type.href` of a sensor record: the HAL answers carry it, and a submission's link must name it. */
export function sensorRecordTypeHref(baseUrl: string): string {
  return `${baseUrl}/rest/type/node/${SENSOR_REPORT_BUNDLE}`;
}

/** The record's address: the `Location` of a 201, and (with `?_format=hal_json`) its HAL self link. */
export function sensorRecordUrl(baseUrl: string, nid: number): string {
  return `${baseUrl}/node/${nid}`;
}

/** An account's address: the target of a record's `uid` and `revision_uid` links (`GET /user/{uid}`). */
export function userUrl(baseUrl: string, uid: number | string): string {
  return `${baseUrl}/user/${uid}`;
}

/** `_links.type.href` of an account. */
export function userTypeHref(baseUrl: string): string {
  return `${baseUrl}/rest/type/user/user`;
}
