/** Every command of the administration command line with its options, one line each, in the order `--help` lists them. */
const COMMAND_USAGES: ReadonlyArray<readonly [command: string, options: string]> = [
  ['client:create', '--label L [--secret S | --public]'],
  ['client:list', ''],
  ['client:delete', '--client-id ID'],
  ['user:create', '--username U --password P [--no-ingest]'],
  ['user:list', ''],
  ['user:block', '--username U'],
  ['user:unblock', '--username U'],
  ['user:password', '--username U --password P'],
  ['user:delete', '--username U [--with-records]'],
  ['integration:create', '--user U --network tts|chirpstack [--label L] [--dev-id eui|name]'],
  ['integration:list', ''],
  ['integration:revoke', '--id ID'],
  ['keys:rotate', ''],
  ['keys:list', ''],
  ['keys:retire', '--kid K [--force]'],
  ['records:purge', '--before DATE [--dry-run]'],
  ['backup', '--to FILE'],
  [
    'alert:create',
    '--user U --on EVENTS (--webhook URL [--format json|slack|text] [--secret S] | --email ADDRESS) [--sensor DEV_ID]' +
      ' [--battery-below VOLTS] [--bait-below N] [--remind-after 12h] [--escalate-after 20h (--escalate-webhook URL | --escalate-email ADDRESS)]',
  ],
  ['alert:list', ''],
  ['alert:delete', '--id N'],
  ['alert:test', '--id N'],
];

const HELP_FLAGS = ['--help', '-h'];

/** `client:create --label L [--secret S | --public]`: one command as the help shows it. */
function commandLine([command, options]: readonly [string, string]): string {
  return options === '' ? command : `${command} ${options}`;
}

/** The answer to a missing or unknown command: one line, pointing to the list. */
export const USAGE = 'Usage: cli <command> [options]; `cli --help` lists the commands and their options.';

/** The full help: every command on a line of its own. */
const HELP = [
  'Usage: cli <command> [options]',
  'Each command prints one line of JSON; `cli <command> --help` shows one command.',
  '',
  'Commands:',
  ...COMMAND_USAGES.map((usage) => `  ${commandLine(usage)}`),
].join('\n');

/**
 * What `--help` asks for, or undefined when it is not asked: `cli --help`, `cli -h` and `cli help`
 * answer the full help; `cli <command> --help` and `cli help <command>` that command's line.
 */
export function helpFor(argv: readonly string[]): string | undefined {
  const [first, ...rest] = argv;
  const known = (command: string | undefined) => COMMAND_USAGES.find(([name]) => name === command);
  if (first === 'help' || (first !== undefined && HELP_FLAGS.includes(first))) {
    const usage = known(rest[0]);
    return usage ? `Usage: cli ${commandLine(usage)}` : HELP;
  }
  if (!rest.some((argument) => HELP_FLAGS.includes(argument))) return undefined;
  const usage = known(first);
  return usage ? `Usage: cli ${commandLine(usage)}` : HELP;
}
