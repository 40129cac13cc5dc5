import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import request from 'supertest';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { SigningKeysAdmin } from '../src/auth/keys/admin/signing-keys-admin.service.js';
import { SigningKeyEntity } from '../src/auth/keys/signing-key.entity.js';
import { SigningKeysService } from '../src/auth/keys/signing-keys.service.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { runCommand } from '../src/cli/commands.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { createClient, createUser, obtainTokens, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const kidsOf = (set: JSONWebKeySet) => set.keys.map((key) => key.kid);
/** As the command line prints instants: UTC, to the second. */
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Signing-key rotation (docs/interface.md#signing-keys) on two instances sharing one database (MariaDB
 * in `npm run test:mysql`, a SQLite file otherwise) and one clock the test moves: `keys:rotate` adds a
 * key that both publish at once and both sign with a minute later; tokens of the previous key keep
 * verifying until it is retired; GET /oauth/jwks lets another service verify the tokens (jose).
 */
describe('Signing keys: rotation, the JWK Set and retirement, on two instances', () => {
  const saved = { ...process.env };
  const clock = new FakeClock();
  let sqliteDirectory: string | undefined;
  let instances: Array<{ app: TestApp; server: Server }>;
  /** Runs a keys:* command as the command line does, on the shared database and the test's clock; answers what it prints. */
  let keys: (argv: string[]) => Promise<Record<string, unknown>>;
  let config: AppConfig;
  let client: TestClient;
  let user: TestUser;
  let configuredKid: string;

  /** How long after a key stopped signing a token it signed may verify: ACCESS_TOKEN_TTL, the 1 s leeway and 1 s for two clocks. */
  const lifetimeMs = () => (config.tokens.accessTokenTtl + 2) * 1000;
  /** Both instances read the keys now, as each does every KEY_REFRESH_SECONDS. */
  const readKeys = () => Promise.all(instances.map(({ app }) => app.app.get(SigningKeysService).refresh()));
  const keySet = async (server: Server) => (await request(server).get('/oauth/jwks').expect(200)).body as JSONWebKeySet;
  const tokenFrom = async (index: number) => (await obtainTokens(instances[index]!.app.app, client, user)).access_token;
  /** How each instance answers a request with `token`: 200, or 403 when it refuses the token. */
  const answers = (token: string) =>
    Promise.all(
      instances.map(
        async ({ server }) => (await request(server).get('/api-sensor/sensors').set('Authorization', `Bearer ${token}`)).status,
      ),
    );

  beforeAll(async () => {
    if (!process.env.DATABASE_URL?.startsWith('mysql://')) {
      sqliteDirectory = mkdtempSync(join(tmpdir(), 'sensor-records-keys-'));
      process.env.DATABASE_URL = `sqlite:${join(sqliteDirectory, 'shared.sqlite')}`;
    }
    instances = [];
    for (let index = 0; index < 2; index++) {
      const app = await createTestApp({ override: clock.install });
      instances.push({ app, server: await app.app.listen(0, '127.0.0.1') });
    }
    const first = instances[0]!.app;
    await first.reset();
    config = first.app.get<AppConfig>(APP_CONFIG);
    const signingKeys = new SigningKeysAdmin(first.dataSource.getRepository(SigningKeyEntity), clock, config);
    keys = (argv) => runCommand(argv, { users: first.app.get(UsersService), clients: first.app.get(ClientsService), signingKeys });
    client = await createClient(first.app);
    user = await createUser(first.app);
    configuredKid = kidOf(await tokenFrom(0))!;
  });

  beforeEach(async () => {
    await instances[0]!.app.dataSource.query('DELETE FROM oauth_signing_keys');
    await readKeys();
  });

  afterAll(async () => {
    // On a shared MySQL database the next suite's application would start signing with the keys left here.
    await instances?.[0]?.app.dataSource.query('DELETE FROM oauth_signing_keys');
    for (const { app } of instances ?? []) await app.close();
    process.env = { ...saved };
    if (sqliteDirectory) rmSync(sqliteDirectory, { recursive: true, force: true });
  });

  it('publishes the configured key as a JWK Set, fetched by jose to verify a token the service issued', async () => {
    const token = await tokenFrom(0);
    const { port } = instances[0]!.server.address() as AddressInfo;
    const response = await request(instances[0]!.server).get('/oauth/jwks').expect(200);

    const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(`http://127.0.0.1:${port}/oauth/jwks`)), {
      issuer: config.baseUrl,
      algorithms: ['RS256'],
      currentDate: new Date(clock.now()),
    });

    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('public, max-age=30');
    expect(response.body).toEqual({
      keys: [{ kty: 'RSA', n: expect.stringMatching(/^[\w-]{342}$/), e: 'AQAB', kid: configuredKid, alg: 'RS256', use: 'sig' }],
    });
    expect(protectedHeader.kid).toBe(configuredKid);
    expect(payload).toMatchObject({ sub: String(user.uid), aud: client.clientId });
  });

  it('rotates: both instances publish the new key at once, both sign with it a minute later, and tokens of the old key keep verifying', async () => {
    const old = await tokenFrom(0);
    const rotated = (await keys(['keys:rotate'])) as { kid: string; signs_from: string };
    await readKeys();

    expect(rotated).toEqual({ kid: expect.stringMatching(/^[\w-]{43}$/), signs_from: instant(clock.now() + 60_000) });
    expect(kidsOf(await keySet(instances[0]!.server))).toEqual([rotated.kid, configuredKid]);
    expect(kidsOf(await keySet(instances[1]!.server))).toEqual([rotated.kid, configuredKid]);
    expect(kidOf(await tokenFrom(1))).toBe(configuredKid);

    clock.advance(60_000);
    const fromFirst = await tokenFrom(0);
    const fromSecond = await tokenFrom(1);

    expect([kidOf(fromFirst), kidOf(fromSecond)]).toEqual([rotated.kid, rotated.kid]);
    for (const token of [old, fromFirst, fromSecond]) expect(await answers(token)).toEqual([200, 200]);
    // Another service verifies the new key's tokens with the set either instance publishes.
    const published = createLocalJWKSet(await keySet(instances[0]!.server));
    // At the time of the service's clock, which issued them.
    const at = { issuer: config.baseUrl, currentDate: new Date(clock.now()) };
    await expect(jwtVerify(fromSecond, published, at)).resolves.toMatchObject({
      protectedHeader: { kid: rotated.kid },
    });
    await expect(jwtVerify(old, published, at)).resolves.toMatchObject({ protectedHeader: { kid: configuredKid } });
  });

  it('lists each key with its state: signing, next, verifying, and from when it may be retired', async () => {
    const first = (await keys(['keys:rotate'])) as { kid: string; signs_from: string };
    clock.advance(60_000);
    const second = (await keys(['keys:rotate'])) as { kid: string; signs_from: string };

    const listed = await keys(['keys:list']);

    expect(listed).toEqual({
      keys: [
        {
          kid: second.kid,
          source: 'database',
          state: 'next',
          created: instant(clock.now()),
          signs_from: second.signs_from,
          retirable_from: instant(clock.now()),
          retired_at: null,
        },
        {
          kid: first.kid,
          source: 'database',
          state: 'signing',
          created: instant(clock.now() - 60_000),
          signs_from: first.signs_from,
          retirable_from: null,
          retired_at: null,
        },
        {
          kid: configuredKid,
          source: 'configured',
          state: 'verifying',
          created: null,
          signs_from: null,
          retirable_from: instant(Date.parse(first.signs_from) + lifetimeMs()),
          retired_at: null,
        },
      ],
    });
  });

  it('refuses to retire the signing key, even with --force, and the previous one without it while tokens it signed may be valid', async () => {
    const rotated = (await keys(['keys:rotate'])) as { kid: string; signs_from: string };
    clock.advance(60_000);

    await expect(keys(['keys:retire', `--kid=${rotated.kid}`, '--force'])).rejects.toThrow(
      new CliError(`The key ${rotated.kid} is the signing key: run keys:rotate first, then retire it once its tokens have expired.`),
    );
    await expect(keys(['keys:retire', `--kid=${configuredKid}`])).rejects.toThrow(
      new CliError(
        `Tokens the key ${configuredKid} signed may be valid until ${new Date(Date.parse(rotated.signs_from) + lifetimeMs()).toISOString()}: retire it then, or now with --force (those tokens are refused).`,
      ),
    );
    await expect(keys(['keys:retire', '--kid=no-such-key'])).rejects.toThrow(
      new CliError('No signing key has the kid "no-such-key" (keys:list shows them).'),
    );
  });

  it('retires the previous key with --force: both instances refuse its tokens, still unexpired, and stop publishing it; tokens of the new key still verify', async () => {
    const old = await tokenFrom(0);
    const rotated = (await keys(['keys:rotate'])) as { kid: string; signs_from: string };
    await readKeys();
    clock.advance(60_000);
    const current = await tokenFrom(1);
    expect(await answers(old)).toEqual([200, 200]);

    const retired = await keys(['keys:retire', `--kid=${configuredKid}`, '--force']);
    await readKeys();

    expect(retired).toEqual({ kid: configuredKid, status: 'retired', retired_at: instant(clock.now()) });
    expect(await answers(old)).toEqual([403, 403]);
    expect(await answers(current)).toEqual([200, 200]);
    expect(kidsOf(await keySet(instances[0]!.server))).toEqual([rotated.kid]);
    expect(kidsOf(await keySet(instances[1]!.server))).toEqual([rotated.kid]);
    expect(kidOf(await tokenFrom(0))).toBe(rotated.kid);
    // Retiring it again answers the same.
    await expect(keys(['keys:retire', `--kid=${configuredKid}`])).resolves.toEqual(retired);
  });

  it('retires the previous key without --force once the longest token lifetime has passed since it stopped signing', async () => {
    const rotated = (await keys(['keys:rotate'])) as { kid: string; signs_from: string };
    clock.advance(60_000 + lifetimeMs());

    await expect(keys(['keys:retire', `--kid=${configuredKid}`])).resolves.toMatchObject({ kid: configuredKid, status: 'retired' });
    await readKeys();
    expect(kidsOf(await keySet(instances[1]!.server))).toEqual([rotated.kid]);
  });
});
