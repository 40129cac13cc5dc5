// Guard for `npm run test:mysql`: the suites empty tables, so never point them at a real database.
const url = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/sensor_records_test';
if (!url.startsWith('mysql://')) {
  console.error(`test:mysql needs a mysql:// DATABASE_URL (got ${url})`);
  process.exit(1);
}
const name = decodeURIComponent(new URL(url).pathname.slice(1));
if (!/test/i.test(name)) {
  console.error(`Refusing to run the test suites against database "${name}": its name must contain "test".`);
  process.exit(1);
}
