import request from 'supertest';
import { createTestApp, TestApp } from './utils/test-app.js';

describe('Health probes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers liveness without touching the database', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/health').expect(200);

    expect(response.body).toEqual({ status: 'ok' });
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
