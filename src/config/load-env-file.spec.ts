import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './app-config.js';
import { loadEnvFile } from './load-env-file.js';

describe(loadEnvFile.name, () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'sensor-records-env-file-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads .env in the working directory, the environment winning over the file', () => {
    writeFileSync(join(directory, '.env'), '# settings\nPORT=3001\nexport LOG_LEVEL="debug"\nDATABASE_URL=mysql://from-file\n');
    const env: NodeJS.ProcessEnv = { DATABASE_URL: 'sqlite::memory:' };

    const read = loadEnvFile(env, directory);

    expect(read).toBe(join(directory, '.env'));
    expect(env).toEqual({ DATABASE_URL: 'sqlite::memory:', PORT: '3001', LOG_LEVEL: 'debug' });
  });

  it('keeps a variable the environment sets to the empty string', () => {
    writeFileSync(join(directory, '.env'), 'BASE_URL=https://from-file.example\n');
    const env: NodeJS.ProcessEnv = { BASE_URL: '' };

    loadEnvFile(env, directory);

    expect(env).toEqual({ BASE_URL: '' });
  });

  it('reads nothing when there is no .env', () => {
    const env: NodeJS.ProcessEnv = { PORT: '3000' };

    expect(loadEnvFile(env, directory)).toBeUndefined();
    expect(env).toEqual({ PORT: '3000' });
  });

  it('reads the file ENV_FILE names instead of .env, relative to the working directory', () => {
    writeFileSync(join(directory, '.env'), 'PORT=1111\n');
    writeFileSync(join(directory, 'service.env'), 'PORT=2222\n');
    const env: NodeJS.ProcessEnv = { ENV_FILE: 'service.env' };

    expect(loadEnvFile(env, directory)).toBe(join(directory, 'service.env'));
    expect(env.PORT).toBe('2222');
  });

  it('refuses a file ENV_FILE names that cannot be read, in one line naming it', () => {
    const env: NodeJS.ProcessEnv = { ENV_FILE: 'missing.env' };

    expect(() => loadEnvFile(env, directory)).toThrow(ConfigError);
    expect(() => loadEnvFile(env, directory)).toThrow(
      `Invalid configuration: cannot read the settings file ${join(directory, 'missing.env')} (ENOENT)`,
    );
  });
});
