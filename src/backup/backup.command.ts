import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from '../common/cli/cli-error.js';
import { parse, required } from '../common/cli/command-options.js';
import type { AppConfig } from '../config/app-config.js';
import { backupSqlite } from './sqlite-backup.js';

/**
 * backup --to FILE (docs/operations.md#backup-and-restore): a consistent copy of the SQLite database
 * while the service runs. It reads the database as it is, before any migration a newer command line
 * would apply, so that a backup taken before an upgrade is of the version that wrote it.
 */
export async function runBackupCommand(args: string[], config: AppConfig): Promise<Record<string, unknown>> {
  const values = parse(args, { to: { type: 'string' } });
  const target = resolve(required(values, 'to'));
  const { database } = config;
  if (database.type !== 'sqlite') {
    throw new CliError(
      'backup copies a SQLite database; on MySQL or MariaDB use mariadb-dump --single-transaction (docs/operations.md#backup-and-restore).',
    );
  }
  if (database.path === ':memory:') throw new CliError('The database is in memory (sqlite::memory:): there is nothing to back up.');
  if (!existsSync(database.path)) throw new CliError(`No database at ${database.path}: check DATABASE_URL.`);
  if (existsSync(target)) throw new CliError(`${target} exists already: name a new file.`);
  if (!existsSync(dirname(target))) throw new CliError(`The directory ${dirname(target)} does not exist.`);
  const { pages } = await backupSqlite(database.path, target);
  return {
    to: target,
    bytes: statSync(target).size,
    pages,
    // The key pair the service generated or was given as files is not in the database: it needs a copy of its own.
    ...(config.tokens.privateKey === undefined ? { signing_keys: resolve(config.tokens.keyDirectory) } : {}),
  };
}
