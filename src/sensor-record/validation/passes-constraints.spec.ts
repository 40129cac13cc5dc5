import { IsDefined, validate, ValidatePromise } from 'class-validator';
import { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { passesConstraints as sut } from './passes-constraints.js';
import { shapeInstance } from './submission-shape.js';

const valid = () => ({
  dev_id: 'trap-1',
  metadata: { time: '2020-07-22T06:11:11+12:00', gateways: [{ rssi: -97, field_snr: '9.25' }] },
  payload_fields: { type: [{ target_id: 'sensor_report' }], field_event: [{ value: 'Sprung' }], field_counter: '12' },
});

/** Each breaks one rule of a valid submission. */
const broken: Array<[string, (body: ReturnType<typeof valid>) => void]> = [
  ['a missing required member', (body) => delete (body as Partial<typeof body>).payload_fields],
  ['a null required member', (body) => Object.assign(body, { dev_id: null })],
  ['a wrong type', (body) => Object.assign(body, { dev_id: 5 })],
  ['a list of two', (body) => Object.assign(body, { dev_id: [{ value: 'a' }, { value: 'b' }] })],
  ['a nested member that is not an object', (body) => Object.assign(body, { metadata: 'x' })],
  ['a nested member that is a list', (body) => Object.assign(body, { payload_fields: [] })],
  ['a missing nested required member', (body) => Object.assign(body.metadata, { time: undefined })],
  ['an unreadable time', (body) => Object.assign(body.metadata, { time: '2021-02-30T10:00:00' })],
  ['an optional member out of range', (body) => Object.assign(body.payload_fields, { field_counter: -1 })],
  ['an unknown choice', (body) => Object.assign(body.payload_fields, { field_event: 'Opened' })],
  ['a list member that is not a list', (body) => Object.assign(body.metadata, { gateways: {} })],
  ['a list item that is not an object', (body) => Object.assign(body.metadata, { gateways: [7] })],
  ['a list item breaking a rule', (body) => Object.assign(body.metadata, { gateways: [{ rssi: 'strong' }] })],
  ['a list too long', (body) => Object.assign(body.metadata, { gateways: new Array(101).fill({}) })],
];

const shaped = (body: object) => shapeInstance(CreateSensorRecordDto, body as Record<string, unknown>);

describe('passesConstraints', () => {
  it('passes a submission class-validator finds valid', async () => {
    const submission = shaped(valid());

    await expect(validate(submission)).resolves.toEqual([]);
    expect(sut(submission)).toBe(true);
  });

  it.each(broken)('does not pass %s, which class-validator refuses', async (_, breakRule) => {
    const body = valid();
    breakRule(body);
    const submission = shaped(body);

    expect((await validate(submission, { forbidUnknownValues: false })).length).toBeGreaterThan(0);
    expect(sut(submission)).toBe(false);
  });

  it('leaves to class-validator a class with constraints it does not decide', () => {
    class Awaited {
      @IsDefined()
      @ValidatePromise()
      value: unknown = Promise.resolve(1);
    }

    expect(sut(new Awaited())).toBe(false);
  });
});
