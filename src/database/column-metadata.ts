import type { EntityMetadata } from 'typeorm';

/** A column of an entity as TypeORM's public EntityMetadata lists it: its class is not exported from the package's root. */
export type ColumnMetadata = EntityMetadata['columns'][number];
