import { CliError } from '../../common/cli/cli-error.js';
import { instant, optional, parse, required } from '../../common/cli/command-options.js';
import type { IntegrationsService } from './integrations.service.js';

const INTEGRATION_COMMANDS = ['integration:create', 'integration:list', 'integration:revoke'] as const;
export type IntegrationCommand = (typeof INTEGRATION_COMMANDS)[number];

export function isIntegrationCommand(command: string | undefined): command is IntegrationCommand {
  return (INTEGRATION_COMMANDS as readonly (string | undefined)[]).includes(command);
}

/** integration:create, integration:list and integration:revoke: what each prints (docs/interface.md#administration-command-line). */
export async function runIntegrationCommand(
  command: IntegrationCommand,
  args: string[],
  integrations: IntegrationsService,
): Promise<Record<string, unknown>> {
  switch (command) {
    case 'integration:create': {
      const values = parse(args, {
        user: { type: 'string' },
        network: { type: 'string' },
        label: { type: 'string' },
        'dev-id': { type: 'string' },
      });
      const created = await integrations.create({
        username: required(values, 'user'),
        network: required(values, 'network'),
        label: optional(values, 'label'),
        devIdSource: optional(values, 'dev-id'),
      });
      return { integration_id: created.integrationId, api_key: created.apiKey, webhook_url: created.webhookUrl };
    }
    case 'integration:list': {
      parse(args, {});
      const listed = await integrations.list();
      return {
        integrations: listed.map((integration) => ({
          integration_id: integration.id,
          label: integration.label,
          user: integration.userName,
          uid: integration.uid,
          network: integration.network,
          dev_id: integration.devIdSource,
          created: instant(integration.created),
          last_used: integration.lastUsedAt && instant(integration.lastUsedAt),
          revoked: integration.revokedAt !== null,
          revoked_at: integration.revokedAt && instant(integration.revokedAt),
        })),
      };
    }
    case 'integration:revoke': {
      const values = parse(args, { id: { type: 'string' } });
      const text = required(values, 'id');
      const id = Number(text);
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(id)) throw new CliError('--id must be an integration id (a whole number).');
      const revoked = await integrations.revoke(id);
      return { integration_id: revoked.id, status: 'revoked', revoked_at: instant(revoked.revokedAt!) };
    }
  }
}
