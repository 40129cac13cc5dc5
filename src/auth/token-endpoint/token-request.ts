import type { Request } from 'express';
import { OAuthErrors } from './oauth-errors.js';

/** The token endpoint's form parameters, with the client credentials from the body or HTTP Basic. */
export class TokenRequest {
  constructor(
    private readonly form: Record<string, unknown>,
    readonly basicAuth: { clientId: string; clientSecret: string } | undefined,
    readonly clientAddress: string,
    /** The client tried HTTP Basic, so a failure is answered with a Basic challenge. */
    readonly usedBasicAuth: boolean,
  ) {}

  static from(request: Request): TokenRequest {
    if (!request.is('application/x-www-form-urlencoded')) {
      throw OAuthErrors.invalidRequest('Content-Type', 'Send the parameters as application/x-www-form-urlencoded');
    }
    const form = (request.body ?? {}) as Record<string, unknown>;
    const authorization = request.headers.authorization;
    return new TokenRequest(
      form,
      parseBasicAuth(authorization),
      // As wide as the flood table's column: behind a proxy trusted wholesale the address is whatever
      // the caller wrote in X-Forwarded-For.
      (request.ip ?? request.socket.remoteAddress ?? 'unknown').slice(0, 64),
      /^Basic(\s|$)/i.test(authorization ?? ''),
    );
  }

  /** A parameter given once; given twice is malformed (RFC 6749 §3.2). */
  optional(name: string): string | undefined {
    const value = this.form[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw OAuthErrors.invalidRequest(name);
    return value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined || value === '') throw OAuthErrors.invalidRequest(name);
    return value;
  }

  /** League's order: the body's client_id / client_secret, else the Basic credentials. */
  clientCredentials(): { clientId: string; clientSecret: string } {
    const clientId = this.optional('client_id') || this.basicAuth?.clientId;
    if (!clientId) throw OAuthErrors.invalidRequest('client_id');
    const clientSecret = this.optional('client_secret') ?? this.basicAuth?.clientSecret ?? '';
    return { clientId, clientSecret };
  }
}

function parseBasicAuth(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}
