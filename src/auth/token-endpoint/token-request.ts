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

  /**
   * League's order: the body's client_id / client_secret, else the Basic credentials. Each value comes
   * with the readings to try in turn: a Basic value as sent, then form-decoded (RFC 6749 §2.3.1 has
   * clients form-encode id and secret before Basic-encoding them; many clients do not). The form's
   * own values were decoded by the form parser already.
   */
  clientCredentials(): { clientIds: string[]; clientSecrets: string[] } {
    const formId = this.optional('client_id');
    const clientIds = formId ? [formId] : this.basicAuth?.clientId ? readings(this.basicAuth.clientId) : [];
    if (clientIds.length === 0) throw OAuthErrors.invalidRequest('client_id');
    const formSecret = this.optional('client_secret');
    const clientSecrets = formSecret !== undefined ? [formSecret] : this.basicAuth ? readings(this.basicAuth.clientSecret) : [''];
    return { clientIds, clientSecrets };
  }

  /**
   * The scopes asked for (space-separated, empty items dropped, as league/oauth2-server reads them);
   * none when the parameter is absent or empty.
   */
  scopes(): string[] {
    return (this.optional('scope') ?? '').split(' ').filter((scope) => scope !== '');
  }
}

/** A Basic value as sent, then its form-decoding when that differs and is well-formed. */
function readings(value: string): string[] {
  const decoded = formDecode(value);
  return decoded === undefined || decoded === value ? [value] : [value, decoded];
}

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, `%XX` a byte of UTF-8. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
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
