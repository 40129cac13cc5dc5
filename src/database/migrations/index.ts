import type { MigrationInterface } from 'typeorm';
import { CreateAuthTables1763700000000 } from './1763700000000-CreateAuthTables.js';
import { CreateSensorReports1763700100000 } from './1763700100000-CreateSensorReports.js';
import { DescribeSchema1763800200000 } from './1763800200000-DescribeSchema.js';
import { AddIntegrations1764000000000 } from './1764000000000-AddIntegrations.js';
import { CreateSensors1764000100000 } from './1764000100000-CreateSensors.js';
import { ExactDeviceIds1764100000000 } from './1764100000000-ExactDeviceIds.js';
import { PublicClients1764350000000 } from './1764350000000-PublicClients.js';
import { DropMigrationsLockTable1764400000000 } from './1764400000000-DropMigrationsLockTable.js';
import { CreateSigningKeys1764400100000 } from './1764400100000-CreateSigningKeys.js';
import { SensorBatteryAndSilence1764500000000 } from './1764500000000-SensorBatteryAndSilence.js';
import { IndexRecordCreated1764600000000 } from './1764600000000-IndexRecordCreated.js';
import { CreateAlerts1764600100000 } from './1764600100000-CreateAlerts.js';
import { ForeignKeyRulesAlike1764680000000 } from './1764680000000-ForeignKeyRulesAlike.js';
import { CountClockSteps1764700000000 } from './1764700000000-CountClockSteps.js';
import { PendingLoginChecks1764700100000 } from './1764700100000-PendingLoginChecks.js';
import { OrderTimesOfClocksAhead1764750000000 } from './1764750000000-OrderTimesOfClocksAhead.js';
import { DescribeOrderTimes1764760000000 } from './1764760000000-DescribeOrderTimes.js';
import { DescribeSilenceEnd1764770000000 } from './1764770000000-DescribeSilenceEnd.js';
import { IndexEpisodeSprungReports1764780000000 } from './1764780000000-IndexEpisodeSprungReports.js';

/**
 * The committed migrations in the order they apply; the same list runs on SQLite and on MySQL/MariaDB.
 * Only IndexRecordCreated and IndexEpisodeSprungReports are engine-neutral throughout. The others use TypeORM's QueryRunner API where
 * it says the same on both engines, and branch on the engine where it has no neutral way:
 * - character sets, collations and comments exist only on MySQL (CreateAuthTables, CreateSensorReports,
 *   AddIntegrations, CreateSensors, CreateSigningKeys, CreateAlerts, and DescribeSchema's ALTER TABLE
 *   statements); SQLite's user names compare NOCASE instead (CreateAuthTables);
 * - `request_body` is a MEDIUMTEXT on MySQL, where a TEXT is one byte short (CreateSensorReports);
 * - device ids take the server's binary collation, on MySQL only (ExactDeviceIds, CreateAlerts);
 * - a foreign key is added in place on MySQL (foreign_key_checks off) and by rebuilding the table on
 *   SQLite, which cannot add one (DescribeSchema, AddIntegrations, ForeignKeyRulesAlike);
 * - a column is changed with MySQL's MODIFY, or added with a plain ADD COLUMN, where TypeORM would
 *   rebuild the table (PublicClients, SensorBatteryAndSilence, CountClockSteps, PendingLoginChecks,
 *   OrderTimesOfClocksAhead, DescribeOrderTimes, DescribeSilenceEnd);
 * - date arithmetic: DATE_ADD on MySQL, strftime on SQLite (CreateSensors, ExactDeviceIds);
 * - the old migrations' lock table existed only on MySQL (DropMigrationsLockTable).
 * The entities describe the result on both (test/schema-entities.e2e-spec.ts); a new migration starts
 * from `npm run migration:generate` (docs/operations.md#changing-the-schema).
 */
export const migrations: Array<new () => MigrationInterface> = [
  CreateAuthTables1763700000000,
  CreateSensorReports1763700100000,
  DescribeSchema1763800200000,
  AddIntegrations1764000000000,
  CreateSensors1764000100000,
  ExactDeviceIds1764100000000,
  PublicClients1764350000000,
  DropMigrationsLockTable1764400000000,
  CreateSigningKeys1764400100000,
  SensorBatteryAndSilence1764500000000,
  IndexRecordCreated1764600000000,
  CreateAlerts1764600100000,
  ForeignKeyRulesAlike1764680000000,
  CountClockSteps1764700000000,
  PendingLoginChecks1764700100000,
  OrderTimesOfClocksAhead1764750000000,
  DescribeOrderTimes1764760000000,
  DescribeSilenceEnd1764770000000,
  IndexEpisodeSprungReports1764780000000,
];
