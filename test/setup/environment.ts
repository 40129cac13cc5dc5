import 'reflect-metadata';
// Each test file starts from the same environment: an in-memory SQLite database of its own unless
// DATABASE_URL names another (as `npm run test:mysql` does).
process.env.NODE_ENV = 'test';
process.env.DATABASE_URL ??= 'sqlite::memory:';
process.env.LOG_LEVEL ??= 'silent';
// A test database that cannot be reached fails each suite at once rather than after a series of retries.
process.env.DB_CONNECT_RETRIES ??= '0';
