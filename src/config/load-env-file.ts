import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './app-config.js';

/**
 * Reads settings from a file into the environment, for the service, the admin command line and the
 * TypeORM CLI alike: the file `ENV_FILE` names when set (it must exist), otherwise `.env` in the
 * working directory when there is one. A variable already in the environment keeps its value, even
 * an empty one. Returns the absolute path of the file read, or undefined when none was.
 *
 * The file is parsed by Node's own `.env` parser (the one `process.loadEnvFile` uses); assigning the
 * values here rather than through loadEnvFile makes the precedence explicit, and lets a caller pass
 * an environment other than `process.env`.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  const named = env.ENV_FILE;
  const path = resolve(cwd, named || '.env');
  if (!named && !existsSync(path)) return undefined;
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`Invalid configuration: cannot read the settings file ${path} (${reason})`);
  }
  for (const [name, value] of Object.entries(parseEnv(content))) {
    if (env[name] === undefined) env[name] = value;
  }
  return path;
}
