import { type KeyObject, sign } from 'node:crypto';

/** The claims of an access token, in the order they are written. */
export interface AccessTokenPayload {
  scope: string;
  iss: string;
  aud: string;
  sub: string;
  jti: string;
  iat: number;
  nbf: number;
  exp: number;
}

/** A key's protected header, `{"alg":"RS256","typ":"JWT","kid":…}` encoded once: every token of the key carries the same. */
const encodedHeaders = new Map<string, string>();

/**
 * An RS256 JWS in compact form (RFC 7515). jose's `SignJWT` builds, checks and encodes the header for
 * every token and signs through WebCrypto; here the header is encoded once per key and node:crypto
 * signs on libuv's thread pool, leaving the event loop free meanwhile (signing on the event loop
 * itself gave fewer grants a second on the busy machine: docs/benchmark.md#refresh-grants-the-signature).
 * Verification stays with jose.
 */
export function signRs256Jwt(payload: AccessTokenPayload, kid: string, privateKey: KeyObject): Promise<string> {
  const input = `${encodedHeader(kid)}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(input), privateKey, (error, signature) =>
      error ? reject(error) : resolve(`${input}.${signature.toString('base64url')}`),
    ),
  );
}

function encodedHeader(kid: string): string {
  let header = encodedHeaders.get(kid);
  if (header === undefined) {
    header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid })).toString('base64url');
    // Keys are few (a rotation every so often); a ring that somehow held many would not grow this without bound.
    if (encodedHeaders.size >= 64) encodedHeaders.clear();
    encodedHeaders.set(kid, header);
  }
  return header;
}
