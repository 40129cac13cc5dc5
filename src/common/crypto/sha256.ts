import { createHash } from 'node:crypto';

/** SHA-256 of a text's UTF-8 bytes: how secrets (client secrets, refresh tokens) are stored and cache keys are made. */
export function sha256(value: string, encoding: 'hex' | 'base64' = 'hex'): string {
  return createHash('sha256').update(value, 'utf8').digest(encoding);
}
