import { Controller, Get } from '@nestjs/common';
import request from 'supertest';
import { Public } from '../src/auth/public.decorator.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

@Controller('test-only/default')
class UndecoratedController {
  @Get('closed')
  closed(): { ok: true } {
    return { ok: true };
  }

  @Get('open')
  @Public()
  open(): { ok: true } {
    return { ok: true };
  }
}

describe('The bearer guard is global', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [UndecoratedController] });
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('refuses a route that says nothing about access to a caller without a token', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/test-only/default/closed').expect(403);

    expect(response.body).toEqual(FORBIDDEN_CREATE);
  });

  it('admits a caller with a valid token to that route', async () => {
    const caller = await ingestCaller(testApp.app);

    await request(testApp.app.getHttpServer())
      .get('/test-only/default/closed')
      .set('Authorization', `Bearer ${caller.accessToken}`)
      .expect(200);
  });

  it('opens a @Public() route to everyone', async () => {
    await request(testApp.app.getHttpServer()).get('/test-only/default/open').expect(200);
  });
});
