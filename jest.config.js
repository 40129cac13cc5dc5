/**
 * Nest 12 is published as ES modules only, so Jest runs in its native ESM mode
 * (`node --experimental-vm-modules`, see the `test` script) and ts-jest emits ESM.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  // Races between transactions cannot happen on SQLite, where transactions queue on one connection:
  // suites named `*.mysql.e2e-spec.ts` test them and run only when DATABASE_URL names MySQL.
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.DATABASE_URL?.startsWith('mysql://') ? [] : ['\\.mysql\\.e2e-spec\\.ts$'])],
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
