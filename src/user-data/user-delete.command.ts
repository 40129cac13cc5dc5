import type { DataSource } from 'typeorm';
import { UnknownUserError } from '../auth/users/user-errors.js';
import type { UsersService } from '../auth/users/users.service.js';
import { CliError } from '../common/cli/cli-error.js';
import { parse, required } from '../common/cli/command-options.js';
import { deleteUser, UserHasRecordsError } from './user-deletion.js';

/** user:delete --username U [--with-records] (docs/administration.md#deleting-a-user). */
export async function runUserDeleteCommand(args: string[], users: UsersService, dataSource: DataSource): Promise<Record<string, unknown>> {
  const values = parse(args, { username: { type: 'string' }, 'with-records': { type: 'boolean' } });
  const username = required(values, 'username');
  const user = await users.findByName(username);
  if (!user) throw new UnknownUserError(username);
  try {
    const deleted = await deleteUser(dataSource, user, values['with-records'] === true);
    return {
      uid: deleted.uid,
      status: 'deleted',
      records: deleted.records,
      sensors: deleted.sensors,
      integrations: deleted.integrations,
      alerts: deleted.alerts,
      revoked_tokens: deleted.tokens,
    };
  } catch (error) {
    if (error instanceof UserHasRecordsError) throw new CliError(error.message);
    throw error;
  }
}
