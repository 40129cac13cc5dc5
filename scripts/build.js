// `npm run build`: compiles src/ into dist/, then marks the admin command line executable. tsc writes
// new files without the execute bit, and `npx sensor-records` (the package's `bin`) runs the file
// itself, through its `#!/usr/bin/env node` line.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
chmodSync('dist/cli.js', 0o755);
