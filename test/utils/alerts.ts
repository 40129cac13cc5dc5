import { expect } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlertsAdmin } from '../../src/alerts/admin/alerts-admin.service.js';
import { AlertNotificationEntity } from '../../src/alerts/alert-notification.entity.js';
import { PasswordHasher } from '../../src/auth/users/password-hasher.js';
import { UserEntity } from '../../src/auth/users/user.entity.js';
import { UsersService } from '../../src/auth/users/users.service.js';
import { runCommand } from '../../src/cli/commands.js';
import { type Clock, systemClock } from '../../src/common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config.js';
import { reportBody } from './read-side.js';
import { submit } from './sensor-record-api.js';
import type { TestApp } from './test-app.js';
import { until } from './until.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/** The alerts' admin service on an application's database, as the command line builds it; `config` in place of the application's. */
export function alertsAdmin(testApp: TestApp, clock: Clock = systemClock, config?: AppConfig): AlertsAdmin {
  const users = new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher());
  return new AlertsAdmin(testApp.dataSource, users, clock, config ?? testApp.app.get<AppConfig>(APP_CONFIG));
}

/** `sensor-records alert:…` run by `admin`: what the command prints, read as JSON. */
export function alertCommands(admin: AlertsAdmin): (...argv: string[]) => Promise<Record<string, unknown>> {
  return (...argv) => runCommand(argv, { users: undefined as never, clients: undefined as never, alerts: admin });
}

/** alert:create with `--webhook` to the receiver, which checks the signatures with the alert's secret from then on; answers the alert's id. */
export async function createWebhookAlert(admin: AlertsAdmin, receiver: WebhookReceiver, user: string, on: string, ...more: string[]) {
  const created = await alertCommands(admin)('alert:create', '--user', user, '--on', on, '--webhook', receiver.url(), ...more);
  receiver.secret = String(created.secret);
  return Number(created.alert_id);
}

/**
 * One database for the instances of a file: the test run's MariaDB in `npm run test:mysql`, otherwise
 * a SQLite file of its own (DATABASE_URL set for the applications created after); answers the clean-up.
 */
export function shareOneDatabase(): () => void {
  const saved = { ...process.env };
  const directory = process.env.DATABASE_URL?.startsWith('mysql://') ? undefined : mkdtempSync(join(tmpdir(), 'sensor-records-shared-'));
  if (directory) process.env.DATABASE_URL = `sqlite:${join(directory, 'shared.sqlite')}`;
  return () => {
    process.env = { ...saved };
    if (directory) rmSync(directory, { recursive: true, force: true });
  };
}

/** Step `step` of a trap that is sprung and set again in turn, a minute apart from `start`: Sprung, Set, Sprung, … */
export function sprungOrSet(devId: string, step: number, start: number): Record<string, unknown> {
  const event = step % 2 === 0 ? 'Sprung' : 'Set';
  return reportBody({ dev_id: devId, event, status: event, time: new Date(start + step * 60_000).toISOString() });
}

/** Until `count` webhooks have arrived, then a while longer: a second delivery of any would show by then. */
export async function allReceived(receiver: WebhookReceiver, count: number): Promise<void> {
  await until(() => receiver.received.length >= count);
  await new Promise((resolve) => setTimeout(resolve, 2000));
}

/** Every notification once, signed, and each trap's `sprung` and `reset` in the order of its `steps` reports (sprungOrSet). */
export function expectEachOnceInOrder(receiver: WebhookReceiver, devIds: string[], steps: number): void {
  const ids = receiver.received.map((hook) => Number(hook.json!.notification_id));
  expect(ids).toHaveLength(devIds.length * steps);
  expect(new Set(ids).size).toBe(ids.length);
  expect(receiver.received.map((hook) => hook.headers['idempotency-key'])).toEqual(ids.map(String));
  expect(receiver.received.filter((hook) => !hook.signed)).toEqual([]);
  for (const devId of devIds) {
    expect(receiver.events().filter((event) => event.endsWith(` ${devId}`))).toEqual(
      Array.from({ length: steps }, (_, step) => `${step % 2 === 0 ? 'sprung' : 'reset'} ${devId}`),
    );
  }
}

/**
 * battery_low (below 3.3 V, armed again above 3.4 V) of new sensors whose first two reports go at once
 * to two instances (`apps[0]` and `apps[1]`): 3.0 V and, a minute later by device time, 3.6 V. Whichever
 * commits first, the sensor is left at 3.6 V and armed (the low report's crossing row, when it was
 * written, deleted by the high one), so a third report at 3.0 V is a crossing: answers the dev_ids whose
 * third report raised battery_low, once there is one for each.
 */
export async function batteryLowAfterFirstReportsAtOnce(apps: TestApp[], token: string, devIds: string[]): Promise<string[]> {
  // Whole minutes, as device times are stored to the second.
  const start = Math.floor(Date.now() / 60_000) * 60_000 - 3600_000;
  const at = (minute: number) => new Date(start + minute * 60_000).toISOString();
  const send = (app: TestApp, devId: string, minute: number, voltage: number) =>
    submit(app.app, reportBody({ dev_id: devId, time: at(minute), voltage }), { token, format: 'json' }).expect(201);
  await Promise.all(devIds.flatMap((devId) => [send(apps[0]!, devId, 1, 3.0), send(apps[1]!, devId, 2, 3.6)]));
  await Promise.all(devIds.map((devId, index) => send(apps[index % apps.length]!, devId, 3, 3.0)));
  const third = new Date(at(3)).getTime();
  const raised = async () =>
    (await apps[0]!.dataSource.getRepository(AlertNotificationEntity).find({ where: { event: 'battery_low' }, order: { id: 'ASC' } }))
      .filter((notification) => notification.occurredAt.getTime() === third)
      .map((notification) => notification.devId);
  // Written with their records; a Galera node may apply another node's commits a moment later.
  await until(raised, (found) => found.length >= devIds.length);
  return (await raised()).sort();
}
