import type { AppConfig } from '../config/app-config.js';
import type { SensorRecordModel } from './sensor-record.model.js';
import { sensorRecordModelStub } from '../../test/fixtures/sensor-record-model.stub.js';
import { SerializationService } from './serialization.service.js';

const config = { baseUrl: 'https://sensors.example.org', siteTimezone: 'Pacific/Auckland' } as AppConfig;

function withFields(
  changes: Partial<SensorRecordModel['fields']>,
  record: SensorRecordModel = sensorRecordModelStub.full,
): SensorRecordModel {
  return { ...record, fields: { ...record.fields, ...changes } };
}

describe(SerializationService.name, () => {
  let sut: SerializationService;

  beforeEach(() => {
    sut = new SerializationService(config);
  });

  describe('render', () => {
    it.each([
      ['json', 'application/json'],
      ['hal_json', 'application/hal+json'],
      ['xml', 'text/xml; charset=UTF-8'],
    ] as const)('gives %s the content type %s', (format, contentType) => {
      expect(sut.render(sensorRecordModelStub.minimal, format).contentType).toBe(contentType);
    });

    it('writes a UTC site time zone as +00:00, never Z', () => {
      sut = new SerializationService({ ...config, siteTimezone: 'UTC' });

      const body = JSON.parse(sut.render(sensorRecordModelStub.full, 'json').body);

      expect(body.field_date).toEqual([{ value: '2020-07-21T18:11:11+00:00' }]);
      expect(body.created).toEqual([{ value: '2026-11-21T04:35:00+00:00', format: 'Y-m-d\\TH:i:sP' }]);
    });

    it('writes field_date with the daylight-saving offset of its instant', () => {
      const record = withFields({ date: new Date('2021-04-03T13:30:00Z') });

      const body = JSON.parse(sut.render(record, 'json').body);

      expect(body.field_date).toEqual([{ value: '2021-04-04T02:30:00+13:00' }]);
    });

    it('writes the format member as the 13 characters Y-m-d\\TH:i:sP', () => {
      const body = JSON.parse(sut.render(sensorRecordModelStub.full, 'json').body);

      expect(body.revision_timestamp[0].format).toHaveLength(13);
    });

    it('counts an empty string as no value', () => {
      const record = withFields({ network: '' });

      expect(JSON.parse(sut.render(record, 'json').body).field_network).toEqual([]);
      expect(JSON.parse(sut.render(record, 'hal_json').body)).not.toHaveProperty('field_network');
      expect(sut.render(record, 'xml').body).toContain('<field_network/>');
    });

    it('shows a revision log, without lang in hal_json', () => {
      const record = { ...sensorRecordModelStub.minimal, revisionLog: 'Imported' };

      expect(JSON.parse(sut.render(record, 'json').body).revision_log).toEqual([{ value: 'Imported' }]);
      expect(JSON.parse(sut.render(record, 'hal_json').body).revision_log).toEqual([{ value: 'Imported' }]);
      expect(sut.render(record, 'xml').body).toContain('<revision_log><value>Imported</value></revision_log>');
    });

    it('keeps a zero reading rather than dropping it', () => {
      const record = withFields({ counter: 0, rssi: 0, batteryVoltage: '0' });

      const body = JSON.parse(sut.render(record, 'json').body);

      expect(body.field_counter).toEqual([{ value: 0 }]);
      expect(body.field_rssi).toEqual([{ value: 0 }]);
      expect(body.field_battery_voltage).toEqual([{ value: '0' }]);
    });

    it('builds hal_json links from the base address', () => {
      sut = new SerializationService({ ...config, baseUrl: 'http://localhost:3000/sensors' });

      const body = JSON.parse(sut.render(sensorRecordModelStub.minimal, 'hal_json').body);

      expect(body._links.self).toEqual({ href: 'http://localhost:3000/sensors/node/7?_format=hal_json' });
      expect(Object.keys(body._embedded)).toEqual([
        'http://localhost:3000/sensors/rest/relation/node/sensor_report/revision_uid',
        'http://localhost:3000/sensors/rest/relation/node/sensor_report/uid',
      ]);
    });
  });
});
