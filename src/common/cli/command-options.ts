import { CONTROL_CHARACTERS, escapeCharacters } from '../text/control-characters.js';
import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

type Options = Record<string, { type: 'string' | 'boolean' }>;

/** The options of one command (unknown or misspelt ones refused). */
export function parse(args: string[], options: Options): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // One line, the parser's hint included: a value starting with '-' (a key id may) is given as --name=value.
    throw new CliError((error as Error).message.replace(/\s*\n\s*/g, ' ').trim());
  }
}

export function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new CliError(`Missing required option --${name}.`);
  return value;
}

export function optional(values: Record<string, string | boolean | undefined>, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Instants in UTC, to the second (the database keeps no more). */
export function instant(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The command line's error line (docs/interface.md#administration-command-line): a message of the service's own whole,
 * another's (a driver's, which may run on with detail) its first line; either with its control
 * characters written as `\u000d`, so that an option's value quoted in it (`--email $'a@x.org\r\nBcc: …'`)
 * neither breaks the line nor rewrites it on a terminal.
 */
export function errorLine(message: string, own: boolean): string {
  const text = own ? message : (message.split('\n')[0] ?? '');
  return escapeCharacters(text.trim(), CONTROL_CHARACTERS);
}
