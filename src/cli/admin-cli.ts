import { DataSource } from 'typeorm';
import { ClientsService } from '../auth/clients/clients.service.js';
import { OAuthClientEntity } from '../auth/clients/oauth-client.entity.js';
import { PasswordHasher } from '../auth/users/password-hasher.js';
import { UserEntity } from '../auth/users/user.entity.js';
import { UsersService } from '../auth/users/users.service.js';
import { SigningKeysAdmin } from '../auth/keys/admin/signing-keys-admin.service.js';
import { SigningKeyEntity } from '../auth/keys/signing-key.entity.js';
import { systemClock } from '../common/time/clock.js';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { connectWithRetries } from '../database/connect-data-source.js';
import { DatabaseConnectionError } from '../database/connection-failure.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { quietDatabaseLogger } from '../database/database-logger.js';
import { initializeDataSource } from '../database/initialize-data-source.js';
import { IntegrationsService } from '../integrations/admin/integrations.service.js';
import { IntegrationEntity } from '../integrations/integration.entity.js';
import { runBackupCommand } from '../backup/backup.command.js';
import { AlertsAdmin } from '../alerts/admin/alerts-admin.service.js';
import { CliError } from '../common/cli/cli-error.js';
import { errorLine } from '../common/cli/command-options.js';
import { runCommand } from './commands.js';
import { helpFor } from './usage.js';

export interface CliStreams {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/**
 * The administration command line: applies pending migrations, runs one command, prints exactly one
 * JSON line on stdout (or one message line on stderr, after the JSON line of what a failed command
 * found out, if any) and returns the exit code. `--help` prints the commands instead, one a line.
 */
export async function runAdminCli(argv: string[], env: NodeJS.ProcessEnv, streams: CliStreams): Promise<number> {
  // Help needs neither configuration nor database: it answers on a machine not yet set up.
  const help = helpFor(argv);
  if (help !== undefined) {
    streams.stdout(help);
    return 0;
  }
  let dataSource: DataSource | undefined;
  try {
    const config = loadConfig(env);
    if (argv[0] === 'backup') {
      streams.stdout(JSON.stringify(await runBackupCommand(argv.slice(1), config)));
      return 0;
    }
    const options = buildDataSourceOptions({ ...config.database, migrationsRun: true });
    // An operator at a terminal wants the one-line answer now, not after a series of retries.
    dataSource = await initializeDataSource(
      { ...options, logger: quietDatabaseLogger },
      connectWithRetries(config.database, { retries: 0 }),
    );
    const users = new UsersService(dataSource.getRepository(UserEntity), new PasswordHasher());
    const result = await runCommand(argv, {
      users,
      clients: new ClientsService(dataSource.getRepository(OAuthClientEntity)),
      integrations: new IntegrationsService(dataSource.getRepository(IntegrationEntity), users, config),
      signingKeys: new SigningKeysAdmin(dataSource.getRepository(SigningKeyEntity), systemClock, config),
      records: { dataSource, clock: systemClock },
      alerts: new AlertsAdmin(dataSource, users, systemClock, config),
    });
    streams.stdout(JSON.stringify(result));
    return 0;
  } catch (error) {
    if (error instanceof CliError && error.output) streams.stdout(JSON.stringify(error.output));
    const known = error instanceof CliError || error instanceof ConfigError || error instanceof DatabaseConnectionError;
    streams.stderr(
      errorLine(known ? (error as Error).message : `Failed: ${error instanceof Error ? error.message : String(error)}`, known),
    );
    return 1;
  } finally {
    await dataSource?.destroy().catch(() => undefined);
  }
}
