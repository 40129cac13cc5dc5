/**
 * Nest 12 is published as ES modules only, so Jest runs in its native ESM mode
 * (`node --experimental-vm-modules`, see the `test` script) and ts-jest emits ESM.
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
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
  },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/environment.ts'],
  testTimeout: 30000,
};
