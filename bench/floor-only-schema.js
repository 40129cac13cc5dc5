// @ts-check
// Used only by `npm run bench -- --floor-only` (a self-test of the harness without the service): a
// `sensor_report` table shaped as docs/interface.md#the-stored-record describes it. In a normal run the service's own
// migration creates the table and the floor inserts into that one.
export const FLOOR_ONLY_SCHEMA = `
CREATE TABLE sensor_report (
  nid int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  uuid varchar(36) NOT NULL,
  vid int NULL,
  type varchar(32) NOT NULL,
  langcode varchar(12) NOT NULL,
  status tinyint NOT NULL,
  promote tinyint NOT NULL,
  sticky tinyint NOT NULL,
  default_langcode tinyint NOT NULL,
  revision_translation_affected tinyint NOT NULL,
  revision_log text NULL,
  uid int NOT NULL,
  revision_uid int NOT NULL,
  title varchar(512) NOT NULL,
  created datetime NOT NULL,
  changed datetime NOT NULL,
  revision_timestamp datetime NOT NULL,
  field_sensor_id varchar(255) NOT NULL,
  field_date datetime NOT NULL,
  field_event varchar(32) NOT NULL,
  field_status varchar(32) NULL,
  field_network varchar(255) NULL,
  field_gateway varchar(17) NULL,
  field_sequence int NULL,
  field_counter int NULL,
  field_battery_voltage decimal(10,3) NULL,
  field_tilt_sensor varchar(16) NULL,
  field_timeout int NOT NULL,
  field_data decimal(10,3) NULL,
  field_rssi int NULL,
  field_snr decimal(10,3) NULL,
  request_body mediumtext NOT NULL,
  UNIQUE KEY sensor_report_uuid (uuid),
  KEY sensor_report_sensor_date (field_sensor_id, field_date)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;
