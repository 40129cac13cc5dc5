import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from './column-metadata.js';
import type { Statement } from './send-together.js';

// For statements written as plain SQL with `?` placeholders (both drivers take them): values go in and
// come out exactly as the entity's repository would write and read them (booleans as 0/1, instants as
// each driver stores them, in UTC).

function columnOf<E extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<E>, property: keyof E & string): ColumnMetadata {
  const column = manager.connection.getMetadata(entity).findColumnWithPropertyName(property);
  if (!column) throw new Error(`No column for ${property}`);
  return column;
}

/** A property's value as the driver stores it in its column. */
export function toColumnValue<E extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  property: keyof E & string,
  value: unknown,
): unknown {
  return manager.connection.driver.preparePersistentValue(value, columnOf(manager, entity, property));
}

/** A column's value as plain SQL read it, converted to what the entity holds. */
export function fromColumnValue<E extends ObjectLiteral, P extends keyof E & string>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  property: P,
  value: unknown,
): E[P] {
  return manager.connection.driver.prepareHydratedValue(value, columnOf(manager, entity, property)) as E[P];
}

/**
 * Runs an UPDATE or DELETE and answers how many rows it changed (`manager.query` gives each driver's
 * own raw result, which on SQLite does not say).
 */
export async function rowsChanged(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, parameters, true);
    return result.affected ?? 0;
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}

/** An entity's columns in a plain SELECT of several tables: see aliasedColumns. */
export interface AliasedColumns<E> {
  select: string;
  read: (row: Record<string, unknown>) => E | undefined;
}

/**
 * An entity's columns for a plain SELECT that reads it beside other tables' (a join): `select`, each
 * column as `alias.column AS alias_column` (`hidden`: with those not selected by default, such as a
 * secret); `read`, the entity from a row of that SELECT, converted as its repository reads it, or
 * undefined where the row has none of it (an outer join's missing side, told by its primary key).
 */
export function aliasedColumns<E extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  alias: string,
  options: { hidden?: boolean } = {},
): AliasedColumns<E> {
  const metadata = manager.connection.getMetadata(entity);
  const { driver } = manager.connection;
  const columns = metadata.columns.filter((column) => options.hidden || column.isSelect);
  const key = `${alias}_${metadata.primaryColumns[0]!.databaseName}`;
  return {
    select: columns
      .map((column) => `${alias}.${driver.escape(column.databaseName)} AS ${driver.escape(`${alias}_${column.databaseName}`)}`)
      .join(', '),
    read: (row) => {
      if (row[key] === null || row[key] === undefined) return undefined;
      const read = metadata.create() as Record<string, unknown>;
      for (const column of columns) read[column.propertyName] = driver.prepareHydratedValue(row[`${alias}_${column.databaseName}`], column);
      return read as E;
    },
  };
}

/**
 * The rows of an entity's table that `rest` (`WHERE …`, `ORDER BY …`, with `?` placeholders) selects,
 * read as plain SQL and converted as its repository reads them (each column as the driver and the
 * column's transformer convert it; columns not selected by default, such as a secret, left out),
 * without the query builder's cost.
 */
export async function selectEntities<E extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  rest: string,
  parameters: unknown[],
): Promise<E[]> {
  const select = entitySelect(manager, entity, rest, parameters);
  return select.read((await manager.query(select.sql, select.parameters)) as Array<Record<string, unknown>>);
}

/** selectEntities' statement, to be sent with others (send-together.ts), and how its rows are read. */
export function entitySelect<E extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  rest: string,
  parameters: unknown[],
): Statement & { read: (rows: Array<Record<string, unknown>>) => E[] } {
  const metadata = manager.connection.getMetadata(entity);
  const { driver } = manager.connection;
  const columns = metadata.columns.filter((column) => column.isSelect);
  const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
  return {
    sql: `SELECT ${names} FROM ${driver.escape(metadata.tableName)} ${rest}`,
    parameters,
    read: (rows) =>
      rows.map((row) => {
        const read = metadata.create() as Record<string, unknown>;
        for (const column of columns) read[column.propertyName] = driver.prepareHydratedValue(row[column.databaseName], column);
        return read as E;
      }),
  };
}
