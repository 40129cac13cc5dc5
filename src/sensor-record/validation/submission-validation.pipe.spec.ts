import { ApiException } from '../../common/errors/api-exception.js';
import { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { submissionValidationPipe as sut } from './submission-validation.pipe.js';

const validate = (body: unknown) => sut.transform(body, { type: 'custom', metatype: CreateSensorRecordDto, data: undefined });

async function violations(body: unknown): Promise<string> {
  try {
    await validate(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException).getStatus()).toBe(406);
    return ((error as ApiException).getResponse() as { message: string }).message;
  }
  throw new Error('expected a validation failure');
}

const valid = () => ({
  dev_id: 'trap-1',
  metadata: { time: '2020-07-22T06:11:11+12:00' },
  payload_fields: { type: [{ target_id: 'sensor_report' }], field_event: [{ value: 'Sprung' }] },
});

describe('submissionValidationPipe', () => {
  it('accepts a minimal submission and returns the DTO', async () => {
    const submission = (await validate(valid())) as CreateSensorRecordDto;

    expect(submission).toBeInstanceOf(CreateSensorRecordDto);
    expect(submission.payload_fields.field_event).toBe('Sprung');
    expect(submission.payload_fields.type).toBe('sensor_report');
  });

  it('lists every missing required member with its path', async () => {
    await expect(violations({})).resolves.toBe(
      'Unprocessable Entity: validation failed.\n' +
        'dev_id: This value should not be null.\n' +
        'metadata: This value should not be null.\n' +
        'payload_fields: This value should not be null.\n',
    );
    await expect(violations({ dev_id: 'x', metadata: {}, payload_fields: {} })).resolves.toBe(
      'Unprocessable Entity: validation failed.\n' +
        'metadata.time: This value should not be null.\n' +
        'payload_fields.type: This value should not be null.\n' +
        'payload_fields.field_event: This value should not be null.\n',
    );
  });

  it('reports one reason per member, in Symfony wording', async () => {
    const body = valid();
    Object.assign(body.payload_fields, {
      field_status: [{ value: 'Open' }],
      field_gateway: 'b8:27:eb:0a:1b',
      field_counter: '12.5',
      field_sequence: -1,
      field_battery_voltage: 'high',
      field_data: 10_000_000,
      field_tilt_sensor: 'true',
      field_network: 'a\u0007b',
    });
    Object.assign(body.metadata, { time: '2021-02-30T10:00:00', gateways: [{ rssi: 'strong', snr: [{ value: 1 }, { value: 2 }] }, 7] });

    await expect(violations(body)).resolves.toBe(
      'Unprocessable Entity: validation failed.\n' +
        'metadata.time: This value is not a valid datetime.\n' +
        'metadata.gateways[0].rssi: This value should be of type integer.\n' +
        'metadata.gateways[0].snr: This collection should contain exactly 1 element.\n' +
        'metadata.gateways[1]: This value should be of type object.\n' +
        'payload_fields.field_status: The value you selected is not a valid choice.\n' +
        'payload_fields.field_network: This value should not contain control characters.\n' +
        'payload_fields.field_gateway: This value is not a valid MAC address.\n' +
        'payload_fields.field_sequence: This value should be between 0 and 2147483647.\n' +
        'payload_fields.field_counter: This value should be of type integer.\n' +
        'payload_fields.field_battery_voltage: This value should be of type numeric.\n' +
        'payload_fields.field_tilt_sensor: The value you selected is not a valid choice.\n' +
        'payload_fields.field_data: This value should be between -9999999 and 9999999.\n',
    );
  });

  it('names wrong container types', async () => {
    await expect(violations({ dev_id: 5, metadata: [], payload_fields: 'x' })).resolves.toBe(
      'Unprocessable Entity: validation failed.\n' +
        'dev_id: This value should be of type string.\n' +
        'metadata: This value should be of type object.\n' +
        'payload_fields: This value should be of type object.\n',
    );
    await expect(violations({ ...valid(), metadata: { time: '2020-07-22 06:11', gateways: {} } })).resolves.toBe(
      'Unprocessable Entity: validation failed.\nmetadata.gateways: This value should be of type array.\n',
    );
  });

  it('coerces the accepted spellings', async () => {
    const body = valid();
    Object.assign(body.payload_fields, {
      field_gateway: 'b8:27:eb:0a:1b:2c',
      field_counter: '12',
      field_tilt_sensor: [{ value: true }],
      field_battery_voltage: { value: 3.1415 },
      field_data: '21.000',
    });
    Object.assign(body.metadata, {
      time: [{ value: '2020-07-22T06:11:11Z' }],
      gateways: [{ field_rssi: [{ value: '-97' }], field_snr: 9.25 }],
    });

    const submission = (await validate(body)) as CreateSensorRecordDto;

    expect(submission.payload_fields).toMatchObject({
      field_gateway: 'B8:27:EB:0A:1B:2C',
      field_counter: 12,
      field_tilt_sensor: 'True',
      field_battery_voltage: '3.142',
      field_data: '21',
    });
    expect(submission.metadata.time.text).toBe('2020-07-22T06:11:11Z');
    expect(submission.metadata.gateways?.[0]).toMatchObject({ field_rssi: -97, field_snr: '9.25' });
  });

  it('ignores unknown members', async () => {
    const submission = (await validate({ ...valid(), extra: { nested: true } })) as CreateSensorRecordDto;

    expect(submission).not.toHaveProperty('extra');
  });

  it('takes nothing from "__proto__" or "constructor" members, which JSON.parse makes own properties', async () => {
    // Parsed, not written as a literal: in an object literal `__proto__` would set the prototype instead.
    const body = JSON.parse(
      JSON.stringify(valid())
        .replace(/^\{/, '{"__proto__":{"polluted":1,"dev_id":"from-proto"},"constructor":{"prototype":{"polluted":1}},')
        .replace('"metadata":{', '"metadata":{"__proto__":{"gateways":[{"rssi":"x"}]},'),
    );
    expect(Object.hasOwn(body, '__proto__')).toBe(true);

    const submission = (await validate(body)) as CreateSensorRecordDto;

    expect(Object.getPrototypeOf(submission)).toBe(CreateSensorRecordDto.prototype);
    expect(submission.dev_id).toBe('trap-1');
    expect(submission.metadata.gateways).toBeUndefined();
    expect((submission as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
