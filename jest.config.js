import { availableParallelism } from 'node:os';

/**
 * Nest 12 is published as ES modules only, so Jest runs in its native ESM mode
 * (`node --experimental-vm-modules`, see the `test` script) and SWC emits ESM. SWC strips the types
 * without checking them (`npm run typecheck` checks src and test), which saves the TypeScript compiler's
 * start in every worker and most of a cold run's transforming (docs/testing.md).
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  // Suites named `*.mysql.e2e-spec.ts` test what only a MySQL server does (races between transactions,
  // which queue on SQLite's one connection; a server that stalls or goes away) and run only when
  // DATABASE_URL names MySQL. A block of such tests inside another suite uses test/utils/engine.ts.
  // Suites named `*.galera.e2e-spec.ts` need the three-node cluster and run only in `npm run test:galera`,
  // which sets GALERA_URLS.
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env.DATABASE_URL?.startsWith('mysql://') ? [] : ['\\.mysql\\.e2e-spec\\.ts$']),
    ...(process.env.GALERA_URLS ? [] : ['\\.galera\\.e2e-spec\\.ts$']),
  ],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
          target: 'es2023',
          keepClassNames: true,
        },
        sourceMaps: 'inline',
      },
    ],
  },
  // Jest's default is one worker fewer than the cores, which on two cores runs every file in one
  // process; most of a file's time is loading modules and waiting on the service, so two share the
  // cores well. On MySQL each worker has a database of its own (test/setup/test-database.ts).
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // Every file of the service counts in a coverage report (`npm test -- --coverage`), tested or not.
  collectCoverageFrom: ['src/**/*.ts', '!src/**/*.spec.ts'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/environment.ts'],
  // Only ends a wait that never comes true (tests wait on conditions): on a busy two-core machine a file's
  // set-up and its slowest tests take several times what they take alone.
  testTimeout: 120000,
};
