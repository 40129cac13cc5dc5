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

/** The committed migrations in the order they apply. Each body uses the dialect-neutral QueryRunner API. */
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
];
