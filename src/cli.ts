#!/usr/bin/env node
import 'reflect-metadata';
import { runAdminCli } from './cli/admin-cli.js';
import { ConfigError } from './config/app-config.js';
import { loadEnvFile } from './config/load-env-file.js';

// Entry point of the admin command line (dist/cli.js); see src/cli/commands.ts for the commands.
// Only the command's JSON line goes to stdout, so reading a .env file is not announced.
let exitCode: number;
try {
  loadEnvFile();
  exitCode = await runAdminCli(process.argv.slice(2), process.env, {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  exitCode = 1;
}
process.exitCode = exitCode;
