/** The database engine this run's suites use: `npm test` runs them on SQLite, `npm run test:mysql` on MySQL. */
export const testEngine: 'mysql' | 'sqlite' = process.env.DATABASE_URL?.startsWith('mysql://') ? 'mysql' : 'sqlite';

const RUN_ON = { mysql: 'npm run test:mysql', sqlite: 'npm test' } as const;

/**
 * Registers a block of tests that only one engine can show (a MySQL server that stalls, SQLite's file
 * locks). On the other engine the block is registered as skipped, its name saying where it runs, so
 * that every run's count of skipped tests is honest. Whole suites of that kind are named
 * `*.mysql.e2e-spec.ts` instead (see jest.config.js).
 */
export function describeOn(engine: 'mysql' | 'sqlite', name: string, tests: () => void): void {
  if (engine === testEngine) describe(name, tests);
  // Skip reason: this run's database is the other engine, which alone can show these tests; the block
  // runs in the command its name gives, and is counted as skipped here so that no run hides it.
  else describe.skip(`${name} [${engine} only: runs in \`${RUN_ON[engine]}\`]`, tests);
}
