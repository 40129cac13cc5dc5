import { UnknownClientError } from '../auth/clients/client-errors.js';
import type { ClientsService } from '../auth/clients/clients.service.js';
import { InvalidUserInputError, UnknownUserError, UsernameTakenError } from '../auth/users/user-errors.js';
import type { UsersService } from '../auth/users/users.service.js';
import { InvalidIntegrationInputError, UnknownIntegrationError } from '../integrations/admin/integration-errors.js';
import { isIntegrationCommand, runIntegrationCommand } from '../integrations/admin/integration.commands.js';
import { isKeyCommand, runKeyCommand } from '../auth/keys/admin/key.commands.js';
import type { SigningKeysAdmin } from '../auth/keys/admin/signing-keys-admin.service.js';
import type { IntegrationsService } from '../integrations/admin/integrations.service.js';
import type { DataSource } from 'typeorm';
import { CliError } from '../common/cli/cli-error.js';
import { instant, optional, parse, required } from '../common/cli/command-options.js';
import type { Clock } from '../common/time/clock.js';
import { runPurgeCommand } from '../retention/purge.commands.js';
import { runUserDeleteCommand } from '../user-data/user-delete.command.js';
import { InvalidAlertInputError, UnknownAlertError } from '../alerts/admin/alert-errors.js';
import { isAlertCommand, runAlertCommand } from '../alerts/admin/alert.commands.js';
import type { AlertsAdmin } from '../alerts/admin/alerts-admin.service.js';
import { USAGE } from './usage.js';

export interface CliServices {
  users: UsersService;
  clients: ClientsService;
  /** Only the integration:* commands need it. */
  integrations?: IntegrationsService;
  /** Only the keys:* commands need it. */
  signingKeys?: SigningKeysAdmin;
  /** Only records:purge and user:delete need them. */
  records?: { dataSource: DataSource; clock: Clock };
  /** Only the alert:* commands need it. */
  alerts?: AlertsAdmin;
}

/**
 * Runs one administration command and returns what it prints (one JSON object). Kept apart from
 * process and database set-up so that the tests can drive it against the test database.
 */
export async function runCommand(argv: string[], services: CliServices): Promise<Record<string, unknown>> {
  const [command, ...rest] = argv;
  try {
    if (isIntegrationCommand(command)) {
      if (!services.integrations) throw new Error(`${command} needs the integrations service`);
      return await runIntegrationCommand(command, rest, services.integrations);
    }
    if (isAlertCommand(command)) {
      if (!services.alerts) throw new Error(`${command} needs the alerts`);
      return await runAlertCommand(command, rest, services.alerts);
    }
    if (isKeyCommand(command)) {
      if (!services.signingKeys) throw new Error(`${command} needs the signing keys`);
      return await runKeyCommand(command, rest, services.signingKeys);
    }
    if (command === 'user:delete') {
      if (!services.records) throw new Error(`${command} needs the database`);
      return await runUserDeleteCommand(rest, services.users, services.records.dataSource);
    }
    if (command === 'records:purge') {
      if (!services.records) throw new Error(`${command} needs the database`);
      return await runPurgeCommand(rest, services.records.dataSource, services.records.clock);
    }
    switch (command) {
      case 'client:create': {
        const values = parse(rest, { label: { type: 'string' }, secret: { type: 'string' }, public: { type: 'boolean' } });
        const created = await services.clients.create({
          label: required(values, 'label'),
          secret: optional(values, 'secret'),
          isPublic: values.public === true,
        });
        // A public client has no secret to show.
        return created.clientSecret === null
          ? { client_id: created.clientId, public: true }
          : { client_id: created.clientId, client_secret: created.clientSecret };
      }
      case 'client:list': {
        parse(rest, {});
        const clients = await services.clients.list();
        return {
          clients: clients.map((client) => ({
            client_id: client.clientId,
            label: client.label,
            public: client.isPublic,
            created: instant(client.created),
          })),
        };
      }
      case 'client:delete': {
        const values = parse(rest, { 'client-id': { type: 'string' } });
        const clientId = required(values, 'client-id');
        const revokedTokens = await services.clients.delete(clientId);
        return { client_id: clientId, status: 'deleted', revoked_tokens: revokedTokens };
      }
      case 'user:create': {
        const values = parse(rest, { username: { type: 'string' }, password: { type: 'string' }, 'no-ingest': { type: 'boolean' } });
        const user = await services.users.create({
          username: required(values, 'username'),
          password: required(values, 'password'),
          mayCreateSensorRecords: values['no-ingest'] !== true,
        });
        return { uid: user.uid, uuid: user.uuid };
      }
      case 'user:block': {
        const values = parse(rest, { username: { type: 'string' } });
        const user = await services.users.block(required(values, 'username'));
        return { uid: user.uid, status: 'blocked' };
      }
      case 'user:unblock': {
        const values = parse(rest, { username: { type: 'string' } });
        const { user, forgottenFailedLogins } = await services.users.unblock(required(values, 'username'));
        return { uid: user.uid, status: 'active', failed_logins_forgotten: forgottenFailedLogins };
      }
      case 'user:list': {
        parse(rest, {});
        const users = await services.users.list();
        return {
          users: users.map((user) => ({
            uid: user.uid,
            uuid: user.uuid,
            name: user.name,
            status: user.status ? 'active' : 'blocked',
            may_ingest: user.mayCreateSensorRecords,
            created: instant(user.created),
          })),
        };
      }
      case 'user:password': {
        const values = parse(rest, { username: { type: 'string' }, password: { type: 'string' } });
        const changed = await services.users.setPassword(required(values, 'username'), required(values, 'password'));
        return { uid: changed.uid, revoked_tokens: changed.revokedTokens };
      }
      case undefined:
        throw new CliError(USAGE);
      default:
        throw new CliError(`Unknown command "${command}". ${USAGE}`);
    }
  } catch (error) {
    if (
      error instanceof UsernameTakenError ||
      error instanceof UnknownUserError ||
      error instanceof InvalidUserInputError ||
      error instanceof UnknownClientError ||
      error instanceof UnknownIntegrationError ||
      error instanceof InvalidIntegrationInputError ||
      error instanceof UnknownAlertError ||
      error instanceof InvalidAlertInputError
    ) {
      throw new CliError(error.message);
    }
    if (error instanceof RangeError) throw new CliError(error.message);
    throw error;
  }
}
