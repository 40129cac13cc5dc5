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
    execFileSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit' });
  }
}
