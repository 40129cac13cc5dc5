import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createTestApp, TestApp } from './utils/test-app.js';

const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('Health probes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers liveness without touching the database, with the version it runs', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/health').expect(200);

    expect(response.body).toEqual({ status: 'ok', version: packageVersion });
  });

  it("runs the version package.json, the OpenAPI document and the changelog's latest release name", async () => {
    const health = await request(testApp.app.getHttpServer()).get('/health').expect(200);
    const openApi = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
    // The first release heading after [Unreleased]: "## [0.2.0] - 2026-11-26".
    const latestRelease = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)?.[1];

    expect(packageVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect([health.body.version, openApi.body.info.version, latestRelease]).toEqual([packageVersion, packageVersion, packageVersion]);
  });

  it('reports ready when the database answers', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/health/ready').expect(200);

    expect(response.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('answers 503 naming the database once it is gone', async () => {
    const probeApp = await createTestApp();
    await probeApp.dataSource.destroy();

    const response = await request(probeApp.app.getHttpServer()).get('/health/ready').expect(503);

    expect(response.body.message).toBe('Not ready: database is down.');
    expect(response.body.error.database.status).toBe('down');
    await probeApp.app.close().catch(() => undefined);
  });
});
