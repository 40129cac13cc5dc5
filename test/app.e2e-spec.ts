import request from 'supertest';
import { createTestApp, TestApp } from './utils/test-app.js';

describe('Routing errors', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers an unknown route with 404 and Drupal\'s message', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/no/such/route').expect(404);

    expect(response.body).toEqual({ message: 'No route found for "GET /no/such/route"' });
  });
});
