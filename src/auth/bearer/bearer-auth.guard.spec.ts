import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException } from '../../common/errors/api-exception.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { AUTHENTICATED_OPTIONS, type AuthenticatedOptions, DEFAULT_DENIED_MESSAGE } from './authenticated-options.js';
import { AUTHENTICATED_ELSEWHERE } from '../authenticated-by.decorator.js';
import { IS_PUBLIC } from '../public.decorator.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';

const ingestUser: AuthenticatedUser = Object.freeze({ uid: 1, uuid: 'u-1', name: 'gw', clientId: 'c', mayCreateSensorRecords: true });
const readerUser: AuthenticatedUser = Object.freeze({ ...ingestUser, mayCreateSensorRecords: false });

/** A hand-rolled ExecutionContext whose handler carries the given @Authenticated() options. */
function contextWith(options?: AuthenticatedOptions): ExecutionContext {
  const handler = () => undefined;
  if (options) Reflect.defineMetadata(AUTHENTICATED_OPTIONS, options, handler);
  const response = {};
  return {
    getHandler: () => handler,
    getClass: () => class Probe {},
    switchToHttp: () => ({ getResponse: () => response }),
  } as unknown as ExecutionContext;
}

function deniedBy(action: () => unknown): ApiException {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiException) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe(BearerAuthGuard.name, () => {
  let sut: BearerAuthGuard;

  beforeEach(() => {
    sut = new BearerAuthGuard(new Reflector());
  });

  it('lets a request through to a @Public() route without asking for a token', async () => {
    const handler = () => undefined;
    Reflect.defineMetadata(IS_PUBLIC, true, handler);
    const context = { getHandler: () => handler, getClass: () => class Open {} } as unknown as ExecutionContext;

    await expect(Promise.resolve(sut.canActivate(context))).resolves.toBe(true);
  });

  it('leaves a route that authenticates its callers with a guard of its own to that guard', async () => {
    const handler = () => undefined;
    Reflect.defineMetadata(AUTHENTICATED_ELSEWHERE, true, handler);
    const context = { getHandler: () => handler, getClass: () => class Integrations {} } as unknown as ExecutionContext;

    await expect(Promise.resolve(sut.canActivate(context))).resolves.toBe(true);
  });

  it('passes the user through when the strategy found one', () => {
    expect(sut.handleRequest(null, ingestUser, undefined, contextWith({}))).toBe(ingestUser);
  });

  it('refuses a missing user with 403 and the create message', () => {
    const refusal = deniedBy(() => sut.handleRequest(null, false, undefined, contextWith()));

    expect(refusal.getStatus()).toBe(403);
    expect(refusal.getResponse()).toEqual({ message: DEFAULT_DENIED_MESSAGE });
  });

  it('refuses a user without the ingest permission when the route requires it', () => {
    expect(sut.handleRequest(null, readerUser, undefined, contextWith({}))).toBe(readerUser);

    const refusal = deniedBy(() => sut.handleRequest(null, readerUser, undefined, contextWith({ requireIngest: true })));

    expect(refusal.getStatus()).toBe(403);
  });

  it.each([
    ['an expired token', 'Bearer realm="sensor-records", error="invalid_token", error_description="The access token expired"'],
    ['a revoked token', 'Bearer realm="sensor-records", error="invalid_token", error_description="The access token was revoked"'],
  ])('challenges %s as RFC 6750 §3 says, beside the 403', (_case, challenge) => {
    const refusal = deniedBy(() => sut.handleRequest(null, false, challenge, contextWith()));

    expect(refusal.headers).toEqual({ 'WWW-Authenticate': challenge });
    expect(refusal.getResponse()).toEqual({ message: DEFAULT_DENIED_MESSAGE });
  });

  it('challenges a request without a token with no error code, and a missing permission as insufficient_scope', () => {
    expect(deniedBy(() => sut.handleRequest(null, false, 'Bearer realm="sensor-records"', contextWith())).headers).toEqual({
      'WWW-Authenticate': 'Bearer realm="sensor-records"',
    });
    expect(deniedBy(() => sut.handleRequest(null, readerUser, undefined, contextWith({ requireIngest: true }))).headers).toEqual({
      'WWW-Authenticate':
        'Bearer realm="sensor-records", error="insufficient_scope", error_description="The user may not create sensor records"',
    });
  });

  it("uses the route's denied message", () => {
    const refusal = deniedBy(() => sut.handleRequest(null, undefined, undefined, contextWith({ deniedMessage: 'No.' })));

    expect(refusal.getResponse()).toEqual({ message: 'No.' });
  });

  it('rethrows an infrastructure error so that it is not disguised as a 403', () => {
    const failure = new Error('connect ECONNREFUSED');

    expect(() => sut.handleRequest(failure, false, undefined, contextWith())).toThrow(failure);
  });
});
