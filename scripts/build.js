// `npm run build`: compiles src/ into dist/, marks the admin command line executable, then bundles the
// fleet page (src/fleet-page/client/) into dist/fleet-page/public/. tsc writes new files without the
// execute bit, and `npx sensor-records` (the package's `bin`) runs the file itself, through its
// `#!/usr/bin/env node` line.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
chmodSync('dist/cli.js', 0o755);

// The page's script (with uPlot) and style sheet, each one file, for browsers of the last few years.
// The service serves them itself (src/fleet-page/page-assets.ts): nothing is fetched from elsewhere.
const client = 'src/fleet-page/client';
const out = 'dist/fleet-page/public';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [
    { in: `${client}/main.ts`, out: 'app' },
    { in: `${client}/page.css`, out: 'app' },
  ],
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome109', 'firefox115', 'safari15.6'],
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'icon.svg']) copyFileSync(`${client}/${file}`, `${out}/${file}`);
