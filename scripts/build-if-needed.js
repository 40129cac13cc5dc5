// `npm start` builds first when the compiled output is missing or older than the sources, so a
// fresh clone runs with `npm ci && npm start`; an image without dev dependencies just runs dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const newestSource = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    return Math.max(newest, time);
  }, 0);

const built = existsSync('dist/main.js') && existsSync('dist/cli.js') && existsSync('dist/fleet-page/public/index.html');
const stale = !built || (existsSync('src') && newestSource('src') > statSync('dist/main.js').mtimeMs);
if (stale) {
  if (!existsSync('node_modules/typescript')) {
    console.error(
      built
        ? 'dist/ is older than src/ but TypeScript is not installed; running dist/ as it is.'
        : 'dist/ is missing and TypeScript is not installed: run `npm ci` first.',
    );
    if (!built) process.exit(1);
  } else {
    // Said before the build's silent half minute; on stderr, so that `npm run --silent cli` still
    // prints only its JSON line on stdout.
    console.error(
      built
        ? 'src/ has changed since dist/ was built: building it again (about half a minute)…'
        : 'dist/ is missing: building it first (npm run build, about half a minute)…',
    );
    execFileSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit' });
  }
}
