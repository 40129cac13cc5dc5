import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, run, scratchDirectory } from './utils/built-process.js';

/**
 * `npm start` and `npm run cli` build first when dist/ is missing or older than src/
 * (scripts/build-if-needed.js): in a project of its own, whose build script only leaves a mark.
 */
describe('Building before a start', () => {
  let project: ReturnType<typeof scratchDirectory>;
  const file = (path: string, text = '') => {
    mkdirSync(join(project.path, path, '..'), { recursive: true });
    writeFileSync(join(project.path, path), text);
  };
  const buildIfNeeded = () => run(process.execPath, ['scripts/build-if-needed.js'], { cwd: project.path, env: process.env });

  beforeEach(() => {
    project = scratchDirectory('sensor-records-build-if-needed-');
    file('scripts/build-if-needed.js');
    copyFileSync(join(PROJECT_ROOT, 'scripts/build-if-needed.js'), join(project.path, 'scripts/build-if-needed.js'));
    file('scripts/build.js', "process.stdout.write('build ran\\n');\n");
    file('node_modules/typescript/package.json', '{}');
    file('src/main.ts');
  });

  afterEach(() => project.remove());

  it('says so on one line, on stderr, before a build starts', async () => {
    const result = await buildIfNeeded();

    expect(result).toMatchObject({ code: 0, stdout: 'build ran\n' });
    expect(result.stderr).toBe('dist/ is missing: building it first (npm run build, about half a minute)…\n');
  });

  it('names a build of sources newer than dist/ as a rebuild', async () => {
    for (const built of ['dist/main.js', 'dist/cli.js', 'dist/fleet-page/public/index.html']) file(built);
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(project.path, 'dist/main.js'), past, past);

    const result = await buildIfNeeded();

    expect(result).toMatchObject({ code: 0, stdout: 'build ran\n' });
    expect(result.stderr).toBe('src/ has changed since dist/ was built: building it again (about half a minute)…\n');
  });

  it('prints nothing and builds nothing when dist/ is up to date', async () => {
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(project.path, 'src/main.ts'), past, past);
    for (const built of ['dist/main.js', 'dist/cli.js', 'dist/fleet-page/public/index.html']) file(built);

    expect(await buildIfNeeded()).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
