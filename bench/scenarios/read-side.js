// @ts-check
// The read side (bench/read-side.js): a user's table of `--records` records over `--sensors` devices
// written straight into MariaDB, the sensor table filled by the real migration, then a freshly
// started service timed listing sensors, serving pages and streaming the whole table as CSV.
import { randomBytes } from 'node:crypto';
import { explainPlans, readScenarios, readSideReport, seedRecords } from '../read-side.js';
import { runCommand } from '../processes.js';
import { passwordGrant } from '../token-load.js';

/** @type {import('./index.js').Scenario} */
export default {
  name: 'read',
  about: 'the read side on a seeded table: sensor lists, record pages, the whole table as CSV',
  options: [
    { name: 'records', env: 'BENCH_RECORDS', default: 1_000_000, help: 'records in the seeded table' },
    { name: 'sensors', env: 'BENCH_SENSORS', default: 10_000, help: 'devices they come from' },
  ],

  async run({ stand, options, log }) {
    const service = stand.service;
    if (!service) return null;
    const readerPassword = randomBytes(12).toString('hex');
    const reader = await service.cli(['user:create', '--username', 'bench-reader', '--password', readerPassword]);
    await service.stop();
    log(`seeding ${options.records} records over ${options.sensors} sensors for uid ${reader.uid}`);
    const seedSeconds = await seedRecords(stand.db, { uid: reader.uid, records: options.records, sensors: options.sensors, log });
    log('filling the sensor table by the migration (revert, then run again)');
    const fillStarted = Date.now();
    for (const command of ['migration:revert', 'migration:run']) {
      const ran = await runCommand(
        process.execPath,
        ['node_modules/tsx/dist/cli.mjs', 'node_modules/typeorm/cli.js', command, '-d', 'ormconfig.ts'],
        { cwd: stand.root, env: service.env, timeoutMs: 1_800_000 },
      );
      if (ran.code !== 0) throw new Error(`${command} failed:\n${ran.stdout}${ran.stderr}`);
    }
    const fillSeconds = (Date.now() - fillStarted) / 1000;
    // A fresh process, so that the memory figures are the read side's own.
    await service.start();
    const readerToken = (await passwordGrant(service.url, { ...service.credentials, username: 'bench-reader', password: readerPassword }))
      .access_token;
    const result = await readScenarios({ baseUrl: service.url, token: readerToken, pid: service.child.pid, log });
    const plans = await explainPlans(stand.db, reader.uid);
    const measured = { records: options.records, sensors: options.sensors, seedSeconds, fillSeconds, result, plans };
    return { json: measured, table: () => `${readSideReport(measured)}\n\n(${stand.machine})` };
  },
};
