import type { DatabaseConfig } from '../config/app-config.js';
import { DatabaseConnectionError, describeConnectionFailure } from './connection-failure.js';

const mysql: DatabaseConfig = {
  type: 'mysql',
  url: 'mysql://sensor:secret@db.example:3307/records',
  migrationsRun: true,
  poolSize: 10,
  requestTimeoutMs: 3000,
};
const driverError = (code: string, message = `${code} from the driver`) => Object.assign(new Error(message), { code });

describe(describeConnectionFailure.name, () => {
  it.each([
    [
      'ER_BAD_DB_ERROR',
      'Database "records" does not exist on db.example:3307: create it with CREATE DATABASE `records` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
      false,
    ],
    [
      'ER_ACCESS_DENIED_ERROR',
      'Access denied for user "sensor" on db.example:3307: check the user name and password in DATABASE_URL.',
      false,
    ],
    [
      'ER_ACCESS_DENIED_NO_PASSWORD_ERROR',
      'Access denied for user "sensor" on db.example:3307: check the user name and password in DATABASE_URL.',
      false,
    ],
    [
      'ER_DBACCESS_DENIED_ERROR',
      'User "sensor" may not use database "records" on db.example:3307: check the database name in DATABASE_URL, create the database if it is missing, and GRANT ALL PRIVILEGES ON `records`.* TO the user.',
      false,
    ],
    [
      'ECONNREFUSED',
      'Cannot connect to the database at db.example:3307: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running.',
      true,
    ],
    ['ENOTFOUND', 'Cannot connect to the database: host "db.example" not found; check the host in DATABASE_URL.', false],
    [
      'ECONNRESET',
      'Cannot connect to the database at db.example:3307: the server closed the connection; check that it is MySQL/MariaDB and that it has finished starting.',
      true,
    ],
    ['ER_SOMETHING_ELSE', 'Cannot connect to the database at db.example:3307: ER_SOMETHING_ELSE from the driver.', false],
  ])('says what to do about %s, in one line', (code, message, retryable) => {
    const failure = describeConnectionFailure(driverError(code), mysql);

    expect(failure).toBeInstanceOf(DatabaseConnectionError);
    expect(failure.message).toBe(message);
    expect(failure.retryable).toBe(retryable);
  });

  it('reads the code of a connection tried on several addresses', () => {
    const aggregate = Object.assign(new AggregateError([driverError('ECONNREFUSED', 'connect ECONNREFUSED ::1:3307')], ''), {});

    expect(describeConnectionFailure(aggregate, mysql)).toMatchObject({
      retryable: true,
      message: expect.stringContaining('connection refused'),
    });
  });

  it('names an SQLite file that cannot be opened', () => {
    const failure = describeConnectionFailure(driverError('SQLITE_CANTOPEN', 'unable to open database file'), {
      type: 'sqlite',
      path: '/srv/records.sqlite',
      migrationsRun: true,
      requestTimeoutMs: 3000,
    });

    expect(failure.message).toBe(
      "Cannot open the SQLite database /srv/records.sqlite: unable to open database file; check DATABASE_URL and that the file's directory is writable.",
    );
    expect(failure.retryable).toBe(false);
  });
});
