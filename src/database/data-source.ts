import { loadConfig } from '../config/app-config.js';
import { loadEnvFile } from '../config/load-env-file.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { ServiceDataSource } from './service-data-source.js';

// Stdout belongs to the TypeORM CLI's own report; the settings file is named on stderr.
const settingsFile = loadEnvFile();
if (settingsFile) process.stderr.write(`Settings read from ${settingsFile}\n`);

/** Data source for the TypeORM CLI (see `ormconfig.ts` and the `migration:*` scripts). */
export default new ServiceDataSource(buildDataSourceOptions(loadConfig().database));
