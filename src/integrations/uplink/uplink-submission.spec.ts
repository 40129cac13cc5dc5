import type { IntegrationCaller } from '../key/integration-caller.js';
import type { UplinkReading } from './uplink-reading.js';
import { uplinkSubmission, uplinkViolation } from './uplink-submission.js';

const caller: IntegrationCaller = Object.freeze({
  integrationId: 3,
  network: 'chirpstack',
  label: null,
  devIdSource: 'eui',
  user: { uid: 7, uuid: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b', name: 'fleet-nz' },
});

const reading = (decoded: unknown, overrides: Partial<UplinkReading> = {}): UplinkReading => ({
  network: 'chirpstack',
  devEui: { value: '0004a30b001c1234', path: 'deviceInfo.devEui' },
  deviceName: { value: 'bait-0092', path: 'deviceInfo.deviceName' },
  time: { value: '2026-03-04T08:15:02.401034+00:00', path: 'rxInfo[0].gwTime' },
  gateways: [
    { eui: 'b827ebfffe8a1b2c', rssi: { value: -101.4, path: 'rxInfo[0].rssi' }, snr: { value: 7.2, path: 'rxInfo[0].snr' } },
    { eui: undefined, rssi: { value: undefined, path: 'rxInfo[1].rssi' }, snr: { value: -6.25, path: 'rxInfo[1].snr' } },
  ],
  gatewaysPath: 'rxInfo',
  frameCounter: { value: 377, path: 'fCnt' },
  decoded: { value: decoded, path: 'object' },
  simulated: false,
  uplinkId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  ...overrides,
});

describe('uplinkSubmission', () => {
  it('builds the submission the uplink stands for', () => {
    const { submission } = uplinkSubmission(
      reading({ event: 'Sprung', field_counter: [{ value: 12 }], tilt_sensor: true, colour: 'red' }),
      caller,
    );

    expect(submission).toEqual({
      dev_id: '0004A30B001C1234',
      metadata: { time: '2026-03-04T08:15:02.401034+00:00', gateways: [{ rssi: -101, snr: 7.2 }, { snr: -6.25 }] },
      payload_fields: {
        type: 'sensor_report',
        field_network: 'ChirpStack',
        field_gateway: 'B8:27:EB:8A:1B:2C',
        field_sequence: 377,
        field_event: 'Sprung',
        field_counter: [{ value: 12 }],
        field_tilt_sensor: true,
      },
    });
  });

  it('prefers a reading named with its field_ prefix, and keeps network, gateway and sequence to the uplink', () => {
    const decoded = { event: 'Set', field_event: 'Sprung', sequence: 1, network: 'mine', gateway: 'AA:BB:CC:DD:EE:FF' };

    const { payload_fields: fields } = uplinkSubmission(reading(decoded), caller).submission as { payload_fields: Record<string, unknown> };

    expect(fields).toMatchObject({
      field_event: 'Sprung',
      field_sequence: 377,
      field_network: 'ChirpStack',
      field_gateway: 'B8:27:EB:8A:1B:2C',
    });
  });

  it('takes the label, the device name, and a frame counter of zero left out of the JSON', () => {
    const named: IntegrationCaller = { ...caller, label: 'Ridge line', devIdSource: 'name' };

    const { submission } = uplinkSubmission(reading({ event: 'Set' }, { frameCounter: { value: undefined, path: 'fCnt' } }), named);

    expect(submission).toMatchObject({ dev_id: 'bait-0092', payload_fields: { field_network: 'Ridge line', field_sequence: 0 } });
  });

  it("names each member's place in the uplink, for violations", () => {
    const { sources } = uplinkSubmission(reading({ field_status: 'Open' }), caller);

    expect(uplinkViolation('payload_fields.field_status: The value you selected is not a valid choice.', sources)).toBe(
      'object.field_status: The value you selected is not a valid choice.',
    );
    expect(uplinkViolation('payload_fields.field_event: This value should not be null.', sources)).toBe(
      'object.event: This value should not be null.',
    );
    expect(uplinkViolation('metadata.gateways[1].snr: This value should be of type numeric.', sources)).toBe(
      'rxInfo[1].snr: This value should be of type numeric.',
    );
    expect(uplinkViolation('dev_id: This value should not be null.', sources)).toBe('deviceInfo.devEui: This value should not be null.');
    expect(uplinkViolation('… and 3 more.', sources)).toBe('… and 3 more.');
  });
});
