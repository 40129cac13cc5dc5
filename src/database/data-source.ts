import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';

/** Data source for the TypeORM CLI (see `ormconfig.ts` and the `migration:*` scripts). */
export default new DataSource(buildDataSourceOptions(loadConfig().database));
