import { sensorRecordModelStub } from '../../test/fixtures/sensor-record-model.stub.js';
import { normalizeJson } from '../serialization/json-normalizer.js';
import { RECORD_CSV_COLUMNS, recordCsvRow } from './record-csv.js';

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
