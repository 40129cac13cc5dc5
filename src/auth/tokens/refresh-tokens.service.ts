import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { sha256 } from '../../common/crypto/sha256.js';
import { fromColumnValue, toColumnValue } from '../../database/plain-sql.js';
import type { Statement } from '../../database/send-together.js';
import type { TokenGrant } from './access-tokens.service.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** A stored refresh token as a refresh grant needs it, with whether its user is active. */
export interface PresentedRefreshToken {
  id: number;
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

interface PresentedRow {
  id: number | string;
  family_id: string;
  client_id: string;
  uid: number | string;
  expires_at: unknown;
  revoked: number | string | boolean;
  user_status: number | string | boolean | null;
}

// Plain SQL: a refresh grant is these statements and nothing else (docs/interface.md#refresh-tokens).
const FIND_WITH_USER_STATUS = `SELECT t.id, t.family_id, t.client_id, t.uid, t.expires_at, t.revoked, u.status AS user_status
  FROM oauth_refresh_tokens t LEFT JOIN users u ON u.uid = t.uid WHERE t.token_hash = ?`;
const INSERT = `INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, uid, expires_at, revoked, revoked_at, created)
  VALUES (?, ?, ?, ?, ?, 0, NULL, ?)`;
const REVOKE = 'UPDATE oauth_refresh_tokens SET revoked = 1, revoked_at = ? WHERE id = ? AND revoked = 0';
const DISCARD = 'DELETE FROM oauth_refresh_tokens WHERE token_hash = ?';

/** Opaque refresh tokens: 48 random bytes handed out once, kept only as their SHA-256 digest. */
@Injectable()
export class RefreshTokensService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new refresh token, with the statement that stores it. */
  issue(manager: EntityManager, grant: TokenGrant, now: number): IssuedRefreshToken {
    const token = randomBytes(48).toString('base64url');
    const tokenHash = sha256(token);
    const expiresAt = new Date((now + this.config.tokens.refreshTokenTtl) * 1000);
    const parameters = [
      tokenHash,
      grant.familyId,
      grant.clientId,
      grant.uid,
      toColumnValue(manager, RefreshTokenEntity, 'expiresAt', expiresAt),
      toColumnValue(manager, RefreshTokenEntity, 'created', new Date(now * 1000)),
    ];
    return { token, tokenHash, record: { sql: INSERT, parameters } };
  }

  /** The stored token and whether its user is active, in one statement (a refresh needs both). */
  async findWithUserStatus(manager: EntityManager, token: string): Promise<PresentedRefreshToken | null> {
    const [row] = (await manager.query(FIND_WITH_USER_STATUS, [sha256(token)])) as PresentedRow[];
    if (!row) return null;
    return {
      id: Number(row.id),
      familyId: row.family_id,
      clientId: row.client_id,
      uid: Number(row.uid),
      expiresAt: fromColumnValue(manager, RefreshTokenEntity, 'expiresAt', row.expires_at),
      revoked: Boolean(Number(row.revoked)),
      userActive: Boolean(Number(row.user_status ?? 0)),
    };
  }

  /**
   * The statement that marks the token used. This conditional update is the arbiter between concurrent
   * refreshes with the same token: only the one whose update changed the row may hand out a new pair.
   */
  revoke(manager: EntityManager, id: number, now: Date): Statement {
    return { sql: REVOKE, parameters: [toColumnValue(manager, RefreshTokenEntity, 'revokedAt', now), id] };
  }

  /** Removes a token that was stored but never handed out. */
  async discard(manager: EntityManager, tokenHash: string): Promise<void> {
    await manager.query(DISCARD, [tokenHash]);
  }
}
