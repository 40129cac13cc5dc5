import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import request from 'supertest';
import { IntegrationsService } from '../../src/integrations/admin/integrations.service.js';
import { createUser, type TestUser } from './auth-fixtures.js';

export const TTS_UPLINK_URL = '/api-sensor/integrations/tts/uplink';
export const CHIRPSTACK_URL = '/api-sensor/integrations/chirpstack';

export interface TestIntegration {
  integrationId: number;
  apiKey: string;
  user: TestUser;
}

/** An integration (and a fresh user unless given one), created as `integration:create` creates it. */
export async function createIntegration(
  app: INestApplication,
  options: { network: 'tts' | 'chirpstack'; label?: string; devIdSource?: 'eui' | 'name'; user?: TestUser },
): Promise<TestIntegration> {
  const user = options.user ?? (await createUser(app));
  const created = await app
    .get(IntegrationsService)
    .create({ username: user.username, network: options.network, label: options.label, devIdSource: options.devIdSource });
  return { integrationId: created.integrationId, apiKey: created.apiKey, user };
}

type Target = INestApplication | Server;
const server = (target: Target) => ('getHttpServer' in target ? (target.getHttpServer() as Server) : target);

/** Posts as a network server does: JSON text (a string as it is), the key as a bearer token. */
function post(target: Target, url: string, body: unknown, key: string | undefined, contentType: string | null) {
  let call = request(server(target)).post(url);
  if (key !== undefined) call = call.set('Authorization', `Bearer ${key}`);
  if (contentType !== null) call = call.set('Content-Type', contentType);
  call = call.send(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  // superagent labels a text body as a form unless told otherwise; `null` means "send no Content-Type".
  return contentType === null ? call.unset('Content-Type') : call;
}

export function postTtsUplink(target: Target, body: unknown, key?: string, contentType: string | null = 'application/json') {
  return post(target, TTS_UPLINK_URL, body, key, contentType);
}

export function postChirpstackEvent(
  target: Target,
  /** The event, or the query string as it stands (`{ query: 'event=up&event=join' }`). */
  event: string | { query: string } | undefined,
  body: unknown,
  key?: string,
  contentType: string | null = 'application/json',
) {
  return post(
    target,
    event === undefined
      ? CHIRPSTACK_URL
      : `${CHIRPSTACK_URL}?${typeof event === 'string' ? `event=${encodeURIComponent(event)}` : event.query}`,
    body,
    key,
    contentType,
  );
}

/** A copy of `body` with the member at `path` (`uplink_message.rx_metadata[1]`) set to `value`. */
export function withMember<T extends object>(body: T, path: string, value: unknown): T {
  const copy = structuredClone(body);
  const keys = path.match(/[^.[\]]+/g) ?? [];
  const parent = keys
    .slice(0, -1)
    .reduce<Record<string, unknown>>((object, key) => object[key] as Record<string, unknown>, copy as Record<string, unknown>);
  parent[keys.at(-1)!] = value;
  return copy;
}
