import { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { OAuthClientEntity } from '../src/auth/clients/oauth-client.entity.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { runCommand, type CliServices } from '../src/cli/commands.js';
import { systemClock } from '../src/common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { IntegrationsService } from '../src/integrations/admin/integrations.service.js';
import { IntegrationEntity } from '../src/integrations/integration.entity.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { testEngine } from './utils/engine.js';
import { read, report, reportBody, SENSORS_URL } from './utils/read-side.js';
import { submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** user:delete --username U [--with-records] (docs/administration.md#deleting-a-user). */
describe(`user:delete (${testEngine})`, () => {
  let testApp: TestApp;
  let cli: CliServices;

  const rowsOf = async (table: string, uid: number) =>
    Number(
      ((await testApp.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE uid = ?`, [uid])) as Array<{ n: number | string }>)[0]!.n,
    );
  const everythingOf = async (uid: number) => ({
    users: await rowsOf('users', uid),
    records: await rowsOf('sensor_report', uid),
    sensors: await rowsOf('sensor', uid),
    integrations: await rowsOf('integrations', uid),
    alerts: await rowsOf('alerts', uid),
    accessTokens: await rowsOf('oauth_access_tokens', uid),
    refreshTokens: await rowsOf('oauth_refresh_tokens', uid),
  });

  beforeAll(async () => {
    testApp = await createTestApp();
    const users = new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher());
    cli = {
      users,
      clients: new ClientsService(testApp.dataSource.getRepository(OAuthClientEntity)),
      integrations: new IntegrationsService(testApp.dataSource.getRepository(IntegrationEntity), users, {
        baseUrl: 'https://sensors.example.org',
      }),
      records: { dataSource: testApp.dataSource, clock: systemClock },
      alerts: new AlertsAdmin(testApp.dataSource, users, systemClock, testApp.app.get<AppConfig>(APP_CONFIG)),
    };
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('refuses a user who has records, naming how many, and deletes nothing', async () => {
    const owner = await ingestCaller(testApp.app);
    await report(testApp.app, owner.accessToken);
    await report(testApp.app, owner.accessToken);
    const before = await everythingOf(owner.uid);

    await expect(runCommand(['user:delete', '--username', owner.username], cli)).rejects.toThrow(
      new CliError(`The user "${owner.username}" has 2 records: add --with-records to delete them (and their sensors) too.`),
    );

    expect(await everythingOf(owner.uid)).toEqual(before);
    await read(testApp.app, `${SENSORS_URL}?_format=json`, owner.accessToken).expect(200);
  });

  it('names a single record in the singular', async () => {
    const owner = await ingestCaller(testApp.app);
    await report(testApp.app, owner.accessToken);

    await expect(runCommand(['user:delete', '--username', owner.username], cli)).rejects.toThrow(
      new CliError(`The user "${owner.username}" has 1 record: add --with-records to delete it (and their sensors) too.`),
    );
  });

  it('deletes a user without records, with their tokens, integrations and alerts; their token is refused from then on', async () => {
    const owner = await ingestCaller(testApp.app);
    await runCommand(['integration:create', '--user', owner.username, '--network', 'tts'], cli);
    await runCommand(['alert:create', '--user', owner.username, '--on', 'sprung', '--webhook', 'https://alerts.example.org/traps'], cli);

    const printed = await runCommand(['user:delete', '--username', owner.username], cli);

    expect(printed).toEqual({ uid: owner.uid, status: 'deleted', records: 0, sensors: 0, integrations: 1, alerts: 1, revoked_tokens: 2 });
    expect(await everythingOf(owner.uid)).toEqual({
      users: 0,
      records: 0,
      sensors: 0,
      integrations: 0,
      alerts: 0,
      accessTokens: 0,
      refreshTokens: 0,
    });
    await read(testApp.app, `${SENSORS_URL}?_format=json`, owner.accessToken).expect(403);
  });

  it('with --with-records deletes their records and sensors in batches, and leaves every other user as it was', async () => {
    const owner = await ingestCaller(testApp.app);
    const other = await ingestCaller(testApp.app);
    const reports = Array.from({ length: 600 }, (_, index) => reportBody({ dev_id: `trap-${index % 3}` }));
    for (let i = 0; i < 2; i++) await submitBatch(testApp.app, reports, { token: owner.accessToken }).expect(201);
    await report(testApp.app, other.accessToken, { dev_id: 'trap-0' });
    const othersBefore = await everythingOf(other.uid);

    const printed = await runCommand(['user:delete', '--username', owner.username, '--with-records'], cli);

    expect(printed).toEqual({
      uid: owner.uid,
      status: 'deleted',
      records: 1200,
      sensors: 3,
      integrations: 0,
      alerts: 0,
      revoked_tokens: 2,
    });
    expect(await everythingOf(owner.uid)).toEqual({
      users: 0,
      records: 0,
      sensors: 0,
      integrations: 0,
      alerts: 0,
      accessTokens: 0,
      refreshTokens: 0,
    });
    expect(await everythingOf(other.uid)).toEqual(othersBefore);
    await read(testApp.app, `${SENSORS_URL}/trap-0?_format=json`, other.accessToken).expect(200);
  });

  it('refuses an unknown user and a missing --username', async () => {
    await expect(runCommand(['user:delete', '--username', 'nobody'], cli)).rejects.toThrow(
      new CliError('There is no user named "nobody".'),
    );
    await expect(runCommand(['user:delete'], cli)).rejects.toThrow(new CliError('Missing required option --username.'));
  });
});
