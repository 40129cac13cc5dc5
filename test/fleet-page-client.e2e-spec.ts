import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { OAuthClientEntity } from '../src/auth/clients/oauth-client.entity.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { FLEET_PAGE_CLIENT_ID, FleetPageClient } from '../src/fleet-page/fleet-page-client.js';
import { createClient, createPublicClient } from './utils/auth-fixtures.js';
import { asText } from './utils/raw-response.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const clientIdIn = (html: string) => /<meta name="fleet-page-client-id" content="([^"]*)"/.exec(html)?.[1];
const INSTANCES = 3;

/** `GET /` and its files (docs/fleet-page.md), and the public client the page signs in as. */
describe('The fleet page: its files and its client', () => {
  const saved = { ...process.env };
  let sqliteDirectory: string | undefined;
  let instances: TestApp[] = [];

  const page = (testApp: TestApp) => request(testApp.app.getHttpServer()).get('/');
  const pageClients = (testApp: TestApp) => testApp.dataSource.getRepository(OAuthClientEntity).countBy({ clientId: FLEET_PAGE_CLIENT_ID });

  beforeAll(async () => {
    // Instances share one database: MariaDB in `npm run test:mysql`, a SQLite file otherwise.
    if (!process.env.DATABASE_URL?.startsWith('mysql://')) {
      sqliteDirectory = mkdtempSync(join(tmpdir(), 'sensor-records-page-'));
      process.env.DATABASE_URL = `sqlite:${join(sqliteDirectory, 'shared.sqlite')}`;
    }
    // Every instance that started is closed in afterAll, even when another failed to start.
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => createTestApp()));
    instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    process.env = { ...saved };
    if (sqliteDirectory) rmSync(sqliteDirectory, { recursive: true, force: true });
  });

  it('serves the page at GET / as HTML under a strict Content-Security-Policy, naming its public client', async () => {
    const response = await page(instances[0]!).expect(200);

    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const policy = response.headers['content-security-policy'];
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(clientIdIn(response.text)).toBe(FLEET_PAGE_CLIENT_ID);
    expect(response.text).toContain('<meta name="site-time-zone" content="Pacific/Auckland" />');
    // Nothing from another origin, no inline script.
    expect(response.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(response.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('serves its script, style sheet and icon under names that carry their digest, kept for good, compressed when asked', async () => {
    const html = (await page(instances[0]!).expect(200)).text;
    const files = [...html.matchAll(/(?:src|href)="(\/fleet-page\/[^"]+)"/g)].map((match) => match[1]!);
    expect(files.map((file) => file.replace(/\.[\w-]{12}\./, '.<digest>.'))).toEqual([
      '/fleet-page/icon.<digest>.svg',
      '/fleet-page/app.<digest>.css',
      '/fleet-page/app.<digest>.js',
    ]);
    const server = instances[0]!.app.getHttpServer();
    for (const file of files) {
      const plain = await asText(request(server).get(file).set('Accept-Encoding', 'identity')).expect(200);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-encoding']).toBeUndefined();
      // The HTTP client decodes the brotli body; the length sent is the compressed one.
      const compressed = await asText(request(server).get(file).set('Accept-Encoding', 'gzip, br')).expect(200);
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(compressed.headers.vary).toBe('Accept-Encoding');
      expect(compressed.body).toBe(plain.body);
      expect(Number(compressed.headers['content-length'])).toBeLessThan(Buffer.byteLength(plain.body as string));
    }
    expect(files.find((file) => file.endsWith('.js'))).toBeDefined();
  });

  it('answers a file it does not have 404, and another method on / 405, as any route does', async () => {
    const server = instances[0]!.app.getHttpServer();
    const missing = await request(server).get('/fleet-page/app.js').expect(404);
    expect(missing.body).toEqual({ message: 'No route found for "GET /fleet-page/app.js"' });
    const wrongMethod = await request(server).post('/').expect(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });

  it('makes exactly one client for the page when several instances start at once, each serving that one', async () => {
    expect(await pageClients(instances[0]!)).toBe(1);
    await instances[0]!.reset();
    expect(await pageClients(instances[0]!)).toBe(0);

    await Promise.all(instances.map((instance) => instance.app.get(FleetPageClient).onApplicationBootstrap()));

    expect(await pageClients(instances[0]!)).toBe(1);
    expect(await instances[0]!.app.get(ClientsService).isPublic(FLEET_PAGE_CLIENT_ID)).toBe(true);
    for (const instance of instances) expect(clientIdIn((await page(instance).expect(200)).text)).toBe(FLEET_PAGE_CLIENT_ID);
  });

  describe('FLEET_PAGE_CLIENT_ID', () => {
    const start = async (clientId: string) => {
      process.env.FLEET_PAGE_CLIENT_ID = clientId;
      try {
        return await createTestApp();
      } finally {
        delete process.env.FLEET_PAGE_CLIENT_ID;
      }
    };

    it('serves the public client it names, and makes none of its own', async () => {
      await instances[0]!.reset();
      const named = await createPublicClient(instances[0]!.app, { label: 'Trap line page' });
      const instance = await start(named);
      try {
        expect(clientIdIn((await page(instance).expect(200)).text)).toBe(named);
        expect(await pageClients(instance)).toBe(0);
      } finally {
        await instance.close();
      }
    });

    it('stops the start when it names a client that does not exist, or one with a secret', async () => {
      // The check the start-up runs (a failing onApplicationBootstrap ends Nest's start with its error).
      const check = (clientId: string) =>
        new FleetPageClient(instances[0]!.app.get(ClientsService), {
          ...instances[0]!.app.get<AppConfig>(APP_CONFIG),
          fleetPage: { clientId },
        }).onApplicationBootstrap();
      await expect(check('no-such-client')).rejects.toThrow(
        'FLEET_PAGE_CLIENT_ID names the client "no-such-client", which does not exist: make one with client:create --label L --public.',
      );
      const confidential = await createClient(instances[0]!.app);
      await expect(check(confidential.clientId)).rejects.toThrow(
        `FLEET_PAGE_CLIENT_ID names the client "${confidential.clientId}", which has a secret: the page needs a public client (client:create --label L --public).`,
      );
    });
  });
});
