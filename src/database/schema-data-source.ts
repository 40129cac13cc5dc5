import { loadConfig } from '../config/app-config.js';
import { loadEnvFile } from '../config/load-env-file.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { schemaBuilderOptions } from './schema-builder-options.js';
import { ServiceDataSource } from './service-data-source.js';

// Stdout belongs to the TypeORM CLI's own report; the settings file is named on stderr.
const settingsFile = loadEnvFile();
if (settingsFile) process.stderr.write(`Settings read from ${settingsFile}\n`);

/**
 * Data source for `npm run migration:generate` only: it compares the entities with a database the
 * migrations have brought up to date (`npm run migration:run` first) and applies nothing.
 */
export default new ServiceDataSource(await schemaBuilderOptions(buildDataSourceOptions(loadConfig().database)));
