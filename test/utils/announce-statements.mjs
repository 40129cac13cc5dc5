// Loaded into a process of the built service with `node --import`: each SQL statement the process
// prepares on SQLite is written to file descriptor 3, one line each, before it runs, so that a test
// can see which statement a process is held at (better-sqlite3 waits for the file's write lock
// synchronously, inside the statement, where nothing else of the process can tell).
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

const Database = createRequire(process.argv[1])('better-sqlite3');
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (source) {
  writeSync(3, `${String(source).replace(/\s+/g, ' ')}\n`);
  return prepare.call(this, source);
};
