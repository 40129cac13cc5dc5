import { Inject, Injectable } from '@nestjs/common';
import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { toColumnValue } from '../../database/plain-sql.js';
import type { Statement } from '../../database/send-together.js';
import { AccessTokenEntity } from './access-token.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';
import { SigningKeysService } from '../keys/signing-keys.service.js';
import { signRs256Jwt } from './rs256-jwt.js';
import type { Refused } from './token-refusal.js';

/** What the bearer guard relies on once a token's signature and times check out. */
export interface AccessTokenClaims {
  jti: string;
  uid: number;
  clientId: string;
  /** The signing key's id: a token stops verifying when its key is retired. */
  kid: string;
}

export interface IssuedAccessToken {
  token: string;
  jti: string;
  /** The INSERT that records it, sent by the grant with its other writes. */
  record: Statement;
}

/** A refresh token as presented to a grant: its digest, the client presenting it, and when. */
export interface PresentedToken {
  tokenHash: string;
  clientId: string;
  at: Date;
}

/** A new access token's id (its `jti` claim and its row's key). */
export function newJti(): string {
  return randomBytes(32).toString('hex');
}

type SigningKey = ReturnType<SigningKeysService['signingKey']>;

export interface TokenGrant {
  uid: number;
  clientId: string;
  familyId: string;
}

/** Every issued token carries Drupal's role-as-scope for a logged-in account. */
export const TOKEN_SCOPE = 'authenticated';
export const CLOCK_LEEWAY_SECONDS = 1;
const REQUIRED_CLAIMS = ['iss', 'aud', 'sub', 'jti', 'iat', 'nbf', 'exp', 'scope'];

// Plain SQL: part of a grant's few statements (docs/interface.md#refresh-tokens).
const INSERT = `INSERT INTO oauth_access_tokens (jti, family_id, client_id, uid, expires_at, revoked, created) VALUES (?, ?, ?, ?, ?, 0, ?)`;
const INSERT_FOR_REFRESH = `INSERT INTO oauth_access_tokens (jti, family_id, client_id, uid, expires_at, revoked, created)
  SELECT ?, t.family_id, t.client_id, t.uid, ?, 0, ? FROM oauth_refresh_tokens t JOIN users u ON u.uid = t.uid
  WHERE t.token_hash = ? AND t.client_id = ? AND t.revoked = 0 AND t.expires_at > ? AND u.status = 1`;
const DISCARD = 'DELETE FROM oauth_access_tokens WHERE jti = ?';

const EXPIRED: Refused = Object.freeze({ refused: 'expired' });
const INVALID: Refused = Object.freeze({ refused: 'invalid' });

@Injectable()
export class AccessTokensService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SigningKeysService,
  ) {}

  /** Signs an access token, with the statement that records it so that its family can revoke it. */
  async issue(manager: EntityManager, grant: TokenGrant, now: number): Promise<IssuedAccessToken> {
    const jti = newJti();
    const token = await this.sign(grant, jti, now);
    const parameters = [jti, grant.familyId, grant.clientId, grant.uid, ...this.times(manager, now)];
    return { token, jti, record: { sql: INSERT, parameters } };
  }

  /**
   * The statement that records the access token `jti` of a refresh grant, for the user, client and
   * family of the refresh token presented, and only while that token may be used: this client's, not
   * used, not expired, its user active (docs/interface.md#refresh-tokens). It changes no row otherwise.
   */
  recordForRefresh(manager: EntityManager, jti: string, now: number, presented: PresentedToken): Statement {
    const at = toColumnValue(manager, RefreshTokenEntity, 'expiresAt', presented.at);
    return { sql: INSERT_FOR_REFRESH, parameters: [jti, ...this.times(manager, now), presented.tokenHash, presented.clientId, at] };
  }

  /** The key that signs now; a refresh grant takes it before its writes, so that one that cannot sign changes nothing. */
  signingKey(): SigningKey {
    return this.keys.signingKey();
  }

  /** An RS256 JWT for the grant's user and client, `now` in whole seconds. */
  sign(grant: Pick<TokenGrant, 'uid' | 'clientId'>, jti: string, now: number, key = this.keys.signingKey()): Promise<string> {
    return signRs256Jwt(
      {
        scope: TOKEN_SCOPE,
        iss: this.config.baseUrl,
        aud: grant.clientId,
        sub: String(grant.uid),
        jti,
        iat: now,
        nbf: now,
        exp: now + this.config.tokens.accessTokenTtl,
      },
      key.kid,
      key.privateKey,
    );
  }

  /** A token's `expires_at` and `created` as their columns store them. */
  private times(manager: EntityManager, now: number): [expiresAt: unknown, created: unknown] {
    return [
      toColumnValue(manager, AccessTokenEntity, 'expiresAt', new Date((now + this.config.tokens.accessTokenTtl) * 1000)),
      toColumnValue(manager, AccessTokenEntity, 'created', new Date(now * 1000)),
    ];
  }

  /** Removes the record of a token that was never handed out. */
  async discard(manager: EntityManager, jti: string): Promise<void> {
    await manager.query(DISCARD, [jti]);
  }

  /**
   * The claims of a well-formed RS256 token from this issuer, signed by a key that is not retired, that
   * is valid now (1 s leeway); otherwise `expired` for a genuine token past its time (jose checks the
   * times only after the signature and the other claims), `invalid` for anything else. Whether it was
   * revoked, and whether its user may still act, is the caller's question.
   */
  async verify(token: string, now: Date): Promise<AccessTokenClaims | Refused> {
    let payload: JWTPayload;
    let kid: string | undefined;
    try {
      ({ kid } = decodeProtectedHeader(token));
      const key = this.keys.verificationKey(kid);
      if (!key) return INVALID;
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ['RS256'],
        issuer: this.config.baseUrl,
        clockTolerance: CLOCK_LEEWAY_SECONDS,
        currentDate: now,
        requiredClaims: REQUIRED_CLAIMS,
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return EXPIRED;
      if (error instanceof errors.JOSEError || error instanceof TypeError) return INVALID;
      throw error;
    }
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const { aud, sub, jti, iat, scope } = payload;
    if (typeof aud !== 'string' || aud === '') return INVALID;
    if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub)) return INVALID;
    if (typeof jti !== 'string' || jti === '' || jti.length > 64) return INVALID;
    if (typeof iat !== 'number' || iat > nowSeconds + CLOCK_LEEWAY_SECONDS) return INVALID;
    if (typeof scope !== 'string') return INVALID;
    return { jti, uid: Number(sub), clientId: aud, kid: kid! };
  }
}
