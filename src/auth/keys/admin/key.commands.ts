import { CliError } from '../../../common/cli/cli-error.js';
import { instant, parse, required } from '../../../common/cli/command-options.js';
import { KeyRetirementRefusedError, UnknownSigningKeyError } from './signing-key-errors.js';
import type { SigningKeysAdmin } from './signing-keys-admin.service.js';

const KEY_COMMANDS = ['keys:rotate', 'keys:list', 'keys:retire'] as const;
export type KeyCommand = (typeof KEY_COMMANDS)[number];

export function isKeyCommand(command: string | undefined): command is KeyCommand {
  return (KEY_COMMANDS as readonly (string | undefined)[]).includes(command);
}

/** keys:rotate, keys:list and keys:retire: what each prints (docs/interface.md#administration-command-line). */
export async function runKeyCommand(command: KeyCommand, args: string[], keys: SigningKeysAdmin): Promise<Record<string, unknown>> {
  try {
    switch (command) {
      case 'keys:rotate': {
        parse(args, {});
        const rotated = await keys.rotate();
        return { kid: rotated.kid, signs_from: instant(rotated.signsFrom) };
      }
      case 'keys:list': {
        parse(args, {});
        const listed = await keys.list();
        return {
          keys: listed.map((key) => ({
            kid: key.kid,
            source: key.source,
            state: key.state,
            created: key.created && instant(key.created),
            signs_from: key.signsFrom && instant(key.signsFrom),
            retirable_from: key.retirableFrom && instant(key.retirableFrom),
            retired_at: key.retiredAt && instant(key.retiredAt),
          })),
        };
      }
      case 'keys:retire': {
        const values = parse(args, { kid: { type: 'string' }, force: { type: 'boolean' } });
        const retired = await keys.retire(required(values, 'kid'), values.force === true);
        return { kid: retired.kid, status: 'retired', retired_at: instant(retired.retiredAt) };
      }
    }
  } catch (error) {
    if (error instanceof UnknownSigningKeyError || error instanceof KeyRetirementRefusedError) throw new CliError(error.message);
    throw error;
  }
}
