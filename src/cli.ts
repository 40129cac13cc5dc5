import 'reflect-metadata';
import { runAdminCli } from './cli/admin-cli.js';

// Entry point of `npm run cli -- <command> …` (dist/cli.js); see src/cli/commands.ts for the commands.
const exitCode = await runAdminCli(process.argv.slice(2), process.env, {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = exitCode;
