import { RECORD_EXAMPLE } from '../sensor-record/sensor-record.api-docs.js';

// Example bodies of the OpenAPI description, shaped as the two network servers post them: member
// names from their message definitions (The Things Stack's ApplicationUp in lower_snake_case,
// ChirpStack's UplinkEvent in lowerCamelCase), values as a trap in New Zealand (AU915) would send.

/** A webhook uplink message of The Things Stack 3.3x, heard by two gateways (the first with GPS time). */
export const TTS_UPLINK_EXAMPLE = {
  end_device_ids: {
    device_id: 'trap-0417',
    application_ids: { application_id: 'predator-traps' },
    dev_eui: '70B3D57ED0061A4F',
    join_eui: '70B3D57ED0000000',
    dev_addr: '260B3A7C',
  },
  correlation_ids: ['gs:uplink:01HQ3Z8V6TK4M2R7XJ9CPNW5DB'],
  received_at: '2026-03-04T08:15:02.618533927Z',
  uplink_message: {
    session_key_id: 'AY4NbcVyQm9hcVpHSw5Fmw==',
    f_port: 2,
    f_cnt: 1842,
    frm_payload: 'AQEADAFpDhA=',
    decoded_payload: { event: 'Sprung', status: 'Sprung', counter: 12, battery_voltage: 3.61, tilt_sensor: false, timeout: 3600 },
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'orchard-gw', eui: 'B827EBFFFE8A1B2C' },
        time: '2026-03-04T08:15:02.401034Z',
        gps_time: '2026-03-04T08:15:02.401034Z',
        timestamp: 2791820123,
        rssi: -97,
        channel_rssi: -97,
        snr: 9.25,
        location: { latitude: -41.2865, longitude: 174.7762, altitude: 35, source: 'SOURCE_REGISTRY' },
        channel_index: 2,
        received_at: '2026-03-04T08:15:02.412877114Z',
      },
      {
        gateway_ids: { gateway_id: 'ridge-gw-02', eui: '0016C001F153A14C' },
        timestamp: 1187340019,
        rssi: -113,
        channel_rssi: -113,
        snr: -4.5,
        channel_index: 2,
        received_at: '2026-03-04T08:15:02.430051210Z',
      },
    ],
    settings: {
      data_rate: { lora: { bandwidth: 125000, spreading_factor: 7, coding_rate: '4/5' } },
      frequency: '916800000',
      timestamp: 2791820123,
    },
    received_at: '2026-03-04T08:15:02.449120357Z',
    consumed_airtime: '0.061696s',
    network_ids: { net_id: '000013', tenant_id: 'ttn', cluster_id: 'au1', cluster_address: 'au1.cloud.thethings.network' },
  },
};

/** A ChirpStack v4 `up` event (JSON marshaler) of a bait station whose codec names the payload fields with `field_`. */
export const CHIRPSTACK_UPLINK_EXAMPLE = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-03-04T08:15:02.448791+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'Predator Free Wellington',
    applicationId: 'a8bb1c2e-7a4f-4b57-9d4c-3f0f6c1e7a21',
    applicationName: 'bait-stations',
    deviceProfileId: 'e2e3c1b0-2f4b-4d55-8e9a-0c6f1a2b3c4d',
    deviceProfileName: 'Bait station AU915',
    deviceName: 'bait-0092',
    devEui: '0004a30b001c1234',
    deviceClassEnabled: 'CLASS_A',
    tags: { line: 'ridge' },
  },
  devAddr: '01a2b3c4',
  adr: true,
  dr: 5,
  fCnt: 377,
  fPort: 2,
  data: 'BQUBYxUF',
  object: { field_event: 'Baitlevel', field_status: 'Baitlevel', field_battery_voltage: 3.55, field_data: 21.5 },
  rxInfo: [
    {
      gatewayId: 'b827ebfffe8a1b2c',
      uplinkId: 3124,
      nsTime: '2026-03-04T08:15:02.431201+00:00',
      rssi: -101,
      snr: 7.2,
      channel: 2,
      location: { latitude: -41.2865, longitude: 174.7762, altitude: 35 },
      context: 'qHWKdA==',
      metadata: { region_config_id: 'au915_1', region_common_name: 'AU915' },
      crcStatus: 'CRC_OK',
    },
  ],
  txInfo: { frequency: 916800000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
  regionConfigId: 'au915_1',
};

/** What the TTS example is stored as, rendered as the 201 (and a repeated delivery's 200) answers it. */
export const TTS_RECORD_EXAMPLE = {
  ...RECORD_EXAMPLE,
  title: [{ value: 'Sensor report: 70B3D57ED0061A4F (2026-03-04T08:15:02.401034Z)' }],
  field_battery_voltage: [{ value: '3.61' }],
  field_date: [{ value: '2026-03-04T21:15:02+13:00' }],
  field_gateway: [{ value: 'B8:27:EB:8A:1B:2C' }],
  field_network: [{ value: 'The Things Stack' }],
  field_sensor_id: [{ value: '70B3D57ED0061A4F' }],
  field_sequence: [{ value: 1842 }],
  field_timeout: [{ value: 3600 }],
};

/** What the ChirpStack example is stored as, rendered as the 201 (and a repeated delivery's 200) answers it. */
export const CHIRPSTACK_RECORD_EXAMPLE = {
  ...RECORD_EXAMPLE,
  title: [{ value: 'Sensor report: 0004A30B001C1234 (2026-03-04T08:15:02.448791+00:00)' }],
  field_battery_voltage: [{ value: '3.55' }],
  field_counter: [],
  field_data: [{ value: '21.5' }],
  field_date: [{ value: '2026-03-04T21:15:02+13:00' }],
  field_event: [{ value: 'Baitlevel' }],
  field_gateway: [{ value: 'B8:27:EB:8A:1B:2C' }],
  field_network: [{ value: 'ChirpStack' }],
  field_rssi: [{ value: -101 }],
  field_sequence: [{ value: 377 }],
  field_snr: [{ value: '7.2' }],
  field_status: [{ value: 'Baitlevel' }],
  field_tilt_sensor: [],
};
