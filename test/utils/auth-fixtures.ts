import { Controller, Get, type INestApplication } from '@nestjs/common';
import request from 'supertest';
import { Authenticated } from '../../src/auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../../src/auth/authenticated-user.js';
import { CurrentUser } from '../../src/auth/current-user.decorator.js';
import { ClientsService } from '../../src/auth/clients/clients.service.js';
import { UsersService } from '../../src/auth/users/users.service.js';

export interface TestClient {
  clientId: string;
  clientSecret: string;
}

export interface TestUser {
  uid: number;
  uuid: string;
  username: string;
  password: string;
}

export interface TokenPair {
  token_type: string;
  expires_in: number;
  access_token: string;
  refresh_token: string;
}

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;

export const TOKEN_PATH = '/api-sensor/oauth/token';

/** Registers a confidential OAuth client through the application's own service. */
export async function createClient(app: INestApplication, opts: { label?: string; secret?: string } = {}): Promise<TestClient> {
  const created = await app.get(ClientsService).create({ label: opts.label ?? unique('client'), secret: opts.secret });
  return { clientId: created.clientId, clientSecret: created.clientSecret! };
}

/** Registers a public OAuth client (no secret) through the application's own service; resolves with its id. */
export async function createPublicClient(app: INestApplication, opts: { label?: string } = {}): Promise<string> {
  return (await app.get(ClientsService).create({ label: opts.label ?? unique('public-client'), isPublic: true })).clientId;
}

/** Creates an active user; it may submit sensor records unless `ingest: false`. */
export async function createUser(
  app: INestApplication,
  opts: { username?: string; password?: string; ingest?: boolean } = {},
): Promise<TestUser> {
  const username = opts.username ?? unique('user');
  const password = opts.password ?? 'correct horse battery staple';
  const user = await app.get(UsersService).create({ username, password, mayCreateSensorRecords: opts.ingest ?? true });
  return { uid: user.uid, uuid: user.uuid, username, password };
}

/** A password grant over HTTP; fails the test unless it answers 200. */
export async function obtainTokens(app: INestApplication, client: TestClient, user: TestUser): Promise<TokenPair> {
  const response = await request(app.getHttpServer()).post(TOKEN_PATH).type('form').send({
    grant_type: 'password',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    username: user.username,
    password: user.password,
  });
  if (response.status !== 200) {
    throw new Error(`Password grant answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body as TokenPair;
}

/** A fresh client and user, and an access token for them: what a device holds before it submits. */
export async function ingestCaller(
  app: INestApplication,
  opts: { ingest?: boolean } = {},
): Promise<{ accessToken: string; uid: number; uuid: string; username: string; client: TestClient; user: TestUser }> {
  const client = await createClient(app);
  const user = await createUser(app, { ingest: opts.ingest ?? true });
  const tokens = await obtainTokens(app, client, user);
  return { accessToken: tokens.access_token, uid: user.uid, uuid: user.uuid, username: user.username, client, user };
}

/** Test-only routes behind the bearer guard; mount with `createTestApp({ controllers: [AuthProbeController] })`. */
@Controller('test-only/auth-probe')
export class AuthProbeController {
  @Get('ingest')
  @Authenticated({ requireIngest: true })
  ingest(@CurrentUser() user: AuthenticatedUser): AuthenticatedUser {
    return user;
  }

  @Get('any')
  @Authenticated({ deniedMessage: 'You are not authorized to view this record.' })
  any(@CurrentUser() user: AuthenticatedUser): AuthenticatedUser {
    return user;
  }
}

export const PROBE_INGEST = '/test-only/auth-probe/ingest';
export const PROBE_ANY = '/test-only/auth-probe/any';
