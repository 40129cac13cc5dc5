import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { sha256 } from '../../common/crypto/sha256.js';
import { fromColumnValue, toColumnValue } from '../../database/plain-sql.js';
import type { Statement } from '../../database/send-together.js';
import type { PresentedToken, TokenGrant } from './access-tokens.service.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** A presented refresh token as it is stored, with whether its user is active. */
export interface PresentedRefreshToken {
  familyId: string;
  clientId: string;
  uid: number;
  expiresAt: Date;
  revoked: boolean;
  userActive: boolean;
}

export interface IssuedRefreshToken {
  token: string;
  tokenHash: string;
  /** The INSERT that stores it, sent by the grant with its other writes. */
  record: Statement;
}

export interface PresentedRow {
  family_id: string;
  client_id: string;
  uid: number | string;
  expires_at: unknown;
  revoked: number | string | boolean;
  user_status: number | string | boolean | null;
}

// Plain SQL: a refresh grant is these statements and nothing else (docs/interface.md#refresh-tokens).
const INSERT = `INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, uid, expires_at, revoked, revoked_at, created)
  VALUES (?, ?, ?, ?, ?, 0, NULL, ?)`;
const INSERT_BESIDE_ACCESS = `INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, uid, expires_at, revoked, revoked_at, created)
  SELECT ?, family_id, client_id, uid, ?, 0, NULL, ? FROM oauth_access_tokens WHERE jti = ?`;
const TAKE = `UPDATE oauth_refresh_tokens SET revoked = 1, revoked_at = ?
  WHERE token_hash = ? AND revoked = 0 AND EXISTS (SELECT 1 FROM oauth_access_tokens WHERE jti = ?)`;
const READ_WITH_USER_STATUS = `SELECT t.family_id, t.client_id, t.uid, t.expires_at, t.revoked, u.status AS user_status
  FROM oauth_refresh_tokens t LEFT JOIN users u ON u.uid = t.uid WHERE t.token_hash = ?`;
const DISCARD = 'DELETE FROM oauth_refresh_tokens WHERE token_hash = ?';

/** Opaque refresh tokens: 48 random bytes handed out once, kept only as their SHA-256 digest. */
@Injectable()
export class RefreshTokensService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new refresh token, with the statement that stores it. */
  issue(manager: EntityManager, grant: TokenGrant, now: number): IssuedRefreshToken {
    const { token, tokenHash } = newRefreshToken();
    return {
      token,
      tokenHash,
      record: { sql: INSERT, parameters: [tokenHash, grant.familyId, grant.clientId, grant.uid, ...this.times(manager, now)] },
    };
  }

  /**
   * A refresh grant's new refresh token, with the statement that stores it for the user, client and
   * family of the access token `jti`, and only if that access token was stored.
   */
  issueBesideAccess(manager: EntityManager, jti: string, now: number): IssuedRefreshToken {
    const { token, tokenHash } = newRefreshToken();
    return { token, tokenHash, record: { sql: INSERT_BESIDE_ACCESS, parameters: [tokenHash, ...this.times(manager, now), jti] } };
  }

  /**
   * The statement that marks the presented token used, only for the grant whose access token `jti` was
   * stored beside it. This conditional update is the arbiter between concurrent refreshes with the same
   * token: only the one whose update changed the row may hand out its new pair.
   */
  take(manager: EntityManager, presented: PresentedToken, jti: string): Statement {
    const revokedAt = toColumnValue(manager, RefreshTokenEntity, 'revokedAt', presented.at);
    return { sql: TAKE, parameters: [revokedAt, presented.tokenHash, jti] };
  }

  /** The statement that reads the presented token as stored, with its user's status; `presented` reads its row. */
  read(presented: PresentedToken): Statement {
    return { sql: READ_WITH_USER_STATUS, parameters: [presented.tokenHash] };
  }

  presented(manager: EntityManager, row: PresentedRow): PresentedRefreshToken {
    return {
      familyId: row.family_id,
      clientId: row.client_id,
      uid: Number(row.uid),
      expiresAt: fromColumnValue(manager, RefreshTokenEntity, 'expiresAt', row.expires_at),
      revoked: Boolean(Number(row.revoked)),
      userActive: Boolean(Number(row.user_status ?? 0)),
    };
  }

  /** Removes a token that was stored but never handed out. */
  async discard(manager: EntityManager, tokenHash: string): Promise<void> {
    await manager.query(DISCARD, [tokenHash]);
  }

  /** A token's `expires_at` and `created` as their columns store them. */
  private times(manager: EntityManager, now: number): [expiresAt: unknown, created: unknown] {
    return [
      toColumnValue(manager, RefreshTokenEntity, 'expiresAt', new Date((now + this.config.tokens.refreshTokenTtl) * 1000)),
      toColumnValue(manager, RefreshTokenEntity, 'created', new Date(now * 1000)),
    ];
  }
}

function newRefreshToken(): { token: string; tokenHash: string } {
  const token = randomBytes(48).toString('base64url');
  return { token, tokenHash: sha256(token) };
}
