/** The database engine this run's suites use: `npm test` runs them on SQLite, `npm run test:mysql` on MySQL. */
export const testEngine: 'mysql' | 'sqlite' = process.env.DATABASE_URL?.startsWith('mysql://') ? 'mysql' : 'sqlite';

/**
 * Registers a block of tests only on the engine whose behaviour it tests (a MySQL server that stalls,
 * SQLite's file locks): on the other engine the block does not exist, rather than being reported as
 * skipped. Whole suites of that kind are named `*.mysql.e2e-spec.ts` instead (see jest.config.js).
 */
export function describeOn(engine: 'mysql' | 'sqlite', name: string, tests: () => void): void {
  if (engine === testEngine) describe(name, tests);
}
