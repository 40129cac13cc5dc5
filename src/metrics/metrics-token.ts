import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../common/crypto/sha256.js';

/** The answer to a scrape without the token, on the service's port and on METRICS_PORT alike. */
export const METRICS_TOKEN_REFUSED = {
  status: 401,
  message: 'The metrics need the bearer token METRICS_TOKEN names: Authorization: Bearer <METRICS_TOKEN>.',
  challenge: 'Bearer realm="metrics"',
} as const;

/**
 * Whether a scrape's Authorization header carries the configured token (always, when none is
 * configured). Compared as digests in constant time, so the answer's timing says nothing of the token.
 */
export function presentsMetricsToken(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (presented === undefined) return false;
  return timingSafeEqual(Buffer.from(sha256(presented), 'hex'), Buffer.from(sha256(token), 'hex'));
}
