import 'reflect-metadata';

// Each test file starts from the same environment: an in-memory SQLite database of its own unless
// DATABASE_URL names another (as `npm run test:mysql` does).
process.env.NODE_ENV = 'test';
process.env.DATABASE_URL ??= 'sqlite::memory:';
// On MySQL, the files of one Jest worker share its database, and no two workers share one (global-setup.ts).
const workerDatabase = process.env.WORKER_DATABASE_URLS?.split(' ')[Number(process.env.JEST_WORKER_ID ?? '1') - 1];
if (workerDatabase) process.env.DATABASE_URL = workerDatabase;
process.env.LOG_LEVEL ??= 'silent';
// A test database that cannot be reached fails each suite at once rather than after a series of retries.
process.env.DB_CONNECT_RETRIES ??= '0';
