import type { Driver } from 'typeorm';
import type { ColumnMetadata } from './column-metadata.js';

/**
 * The values of `columns` of an entity as the driver stores them, as the repository would store them:
 * each through the driver's own conversion. Read by property name rather than through TypeORM's
 * `getEntityValue`, whose embedded and relation cases cost a batch of records a measurable share
 * (docs/benchmark.md#where-the-time-goes); a column that needs them is refused here.
 */
export function persistentValues(driver: Driver, columns: readonly ColumnMetadata[]): (entity: object) => unknown[] {
  const nested = columns.find((column) => column.embeddedMetadata || column.relationMetadata);
  if (nested) throw new Error(`Column ${nested.propertyName} is embedded or a relation: read it with getEntityValue`);
  return (entity) => {
    const values = new Array<unknown>(columns.length);
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index]!;
      values[index] = driver.preparePersistentValue((entity as Record<string, unknown>)[column.propertyName], column);
    }
    return values;
  };
}

/**
 * A value every row of a column has, as an SQL literal after the driver's conversion: NULL, a number
 * (a boolean as 1 or 0), or a string of letters, digits, `_`, `.` and `-`, which both dialects read alike without escaping.
 * Anything else is refused rather than escaped.
 */
export function sqlLiteral(driver: Driver, column: ColumnMetadata, value: unknown): string {
  const stored: unknown = driver.preparePersistentValue(value, column);
  if (stored === null) return 'NULL';
  // mysql2 binds a boolean as the integer 1 or 0; TypeORM's SQLite driver converts it so itself.
  if (typeof stored === 'boolean') return stored ? '1' : '0';
  if (typeof stored === 'number' && Number.isFinite(stored)) return String(stored);
  if (typeof stored === 'string' && /^[\w.-]*$/.test(stored)) return `'${stored}'`;
  throw new Error(`Column ${column.propertyName}: ${String(stored)} is not a plain SQL literal`);
}
