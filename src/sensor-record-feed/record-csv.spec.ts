import { sensorRecordModelStub } from '../../test/fixtures/sensor-record-model.stub.js';
import { normalizeJson } from '../serialization/json-normalizer.js';
import { csvColumnsViolation, RECORD_CSV_COLUMNS, recordCsvRow } from './record-csv.js';

describe(recordCsvRow.name, () => {
  it('has a column for every field of the json rendering, in its order', () => {
    expect(RECORD_CSV_COLUMNS).toEqual(Object.keys(normalizeJson(sensorRecordModelStub.full, 'Pacific/Auckland')));
  });

  it("takes each field's value as the json rendering has it, decimals as numbers", () => {
    const sut = recordCsvRow(sensorRecordModelStub.full, 'Pacific/Auckland');

    expect(sut).toMatchObject({
      nid: 42,
      type: 'sensor_report',
      uid: 7,
      revision_log: null,
      path: null,
      status: true,
      created: '2026-11-21T04:35:00+00:00',
      field_location: null,
    });
    expect(typeof sut.field_battery_voltage).toBe('number');
  });
});

describe(csvColumnsViolation.name, () => {
  it('names at most five unknown names, each cut to 40 characters, rather than echo a long query whole', () => {
    const names = Array.from({ length: 300 }, (_, index) => `${'x'.repeat(49)}${index % 10}`);

    const sut = csvColumnsViolation(names)!;

    expect(
      sut.startsWith(
        `Unknown field name(s): ${Array(5)
          .fill(`${'x'.repeat(40)}…`)
          .join(', ')} and 295 more. The fields: nid,`,
      ),
    ).toBe(true);
    expect(sut.length).toBeLessThan(1000);
  });

  it('names each unknown name whole when there are few and they are short', () => {
    expect(csvColumnsViolation(['nid', 'temperature'])).toBe(
      `Unknown field name(s): temperature. The fields: ${RECORD_CSV_COLUMNS.join(', ')}.`,
    );
  });
});
