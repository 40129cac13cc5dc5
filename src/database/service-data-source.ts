import { DataSource } from 'typeorm';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';

/**
 * Columns whose type differs by engine, which a decorator (read once, for every engine) cannot say:
 * `request_body` holds up to 64 KiB of UTF-8 and more, one byte more than a MySQL TEXT, so MySQL and
 * MariaDB keep it in a MEDIUMTEXT (CreateSensorReports1763700100000), where SQLite has one TEXT type.
 */
const MYSQL_COLUMN_TYPES = [{ entity: SensorRecordEntity, column: 'request_body', type: 'mediumtext' }] as const;

/**
 * The service's data source: TypeORM's, with the entities' metadata completed for the engine it
 * connected to, so that the schema builder (`migration:generate`, test/schema-entities.e2e-spec.ts)
 * compares each column with what the migrations made.
 */
export class ServiceDataSource extends DataSource {
  override async initialize(): Promise<this> {
    await super.initialize();
    if (this.options.type === 'mysql' || this.options.type === 'mariadb') {
      for (const { entity, column, type } of MYSQL_COLUMN_TYPES) {
        this.getMetadata(entity).findColumnWithDatabaseName(column)!.type = type;
      }
    }
    return this;
  }
}
