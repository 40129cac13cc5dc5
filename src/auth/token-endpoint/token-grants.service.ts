import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { sha256 } from '../../common/crypto/sha256.js';
import { DataSource, type EntityManager } from 'typeorm';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ClientsService } from '../clients/clients.service.js';
import { AccessTokensService, newJti, type TokenGrant } from '../tokens/access-tokens.service.js';
import { type PresentedRow, RefreshTokensService } from '../tokens/refresh-tokens.service.js';
import { runInTransaction, runStatements } from '../../database/run-in-transaction.js';
import { sendThenRead, sendTogether, type Statement } from '../../database/send-together.js';
import { StaleWritesError } from '../../common/errors/stale-writes.error.js';
import { revokeFamily } from '../tokens/token-family.js';
import { PasswordChecksBusyError } from '../users/password-check-queue.js';
import type { UserEntity } from '../users/user.entity.js';
import { isValidName, nameForLog } from '../users/user-name.js';
import { UsersService } from '../users/users.service.js';
import { authenticateClient } from './client-authentication.js';
import { isGrantType } from './grant-types.js';
import { LoginChecksInFlightError, LoginFloodService, type LoginSlot } from './login-flood.service.js';
import { OAuthErrors } from './oauth-errors.js';
import { checkRequestedScopes } from './requested-scope.js';
import type { TokenRequest } from './token-request.js';
import type { TokenResponse } from './token-response.js';

/** A refresh grant's pair once stored and its token taken: what is left to sign and hand out. */
interface TakenToken {
  uid: number;
  jti: string;
  now: number;
  refreshToken: string;
}

type RefreshOutcome = { taken: TakenToken } | { reuse: string } | { error: 'expired' | 'client' | 'unknown' | 'user' } | { stale: true };

/**
 * Runs of a refresh grant's statements whose writes found the token unusable while the read after them
 * found it usable. One more suffices on one node (the read has waited for what the writes missed); the
 * third covers an instance whose connections reach several nodes.
 */
const REFRESH_ATTEMPTS = 3;

/** A new pair; `response` is what the client is handed, `records` the INSERTs that store it. */
interface IssuedPair {
  response: TokenResponse;
  records: [Statement, Statement];
}

/** The password and refresh_token grants of the token endpoint. */
@Injectable()
export class TokenGrantsService {
  private readonly logger = new Logger('OAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly dataSource: DataSource,
    private readonly clients: ClientsService,
    private readonly users: UsersService,
    private readonly accessTokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly flood: LoginFloodService,
  ) {}

  async grant(request: TokenRequest): Promise<TokenResponse> {
    const grantType = request.optional('grant_type');
    if (!isGrantType(grantType)) throw OAuthErrors.unsupportedGrantType();
    const client = await authenticateClient(this.clients, request);
    checkRequestedScopes(request);
    try {
      return await (grantType === 'password' ? this.passwordGrant(request, client.clientId) : this.refreshGrant(request, client.clientId));
    } catch (error) {
      // A client deleted after this instance cached it: its tokens can no longer be stored.
      if (isForeignKeyViolation(error) && !(await this.clients.exists(client.clientId)))
        throw OAuthErrors.invalidClient(request.usedBasicAuth);
      throw error;
    }
  }

  private async passwordGrant(request: TokenRequest, clientId: string): Promise<TokenResponse> {
    const username = request.required('username');
    // No name of an account can be longer or hold a control character: refused before any lookup.
    if (!isValidName(username)) throw OAuthErrors.invalidRequest('username');
    const password = request.required('password');
    const slot = await this.takeSlot(username, request.clientAddress);
    const user = await this.checkPassword(username, password, slot);
    if (user === 'wrong') {
      await this.flood.fail(slot);
      this.logger.warn(`Failed password grant for "${nameForLog(username)}" from ${request.clientAddress}`);
      throw OAuthErrors.invalidCredentials();
    }
    // Only wrong passwords count (docs/interface.md#failed-login-limits): a blocked user's right one is refused uncounted.
    await this.flood.release(slot);
    if (user === 'blocked') throw OAuthErrors.invalidCredentials();
    const grant = { uid: user.uid, clientId, familyId: randomUUID() };
    // Two INSERTs sent together, each committed as it runs: if the second fails, the first names a token never handed out.
    return runStatements(this.dataSource, async (manager) => {
      const issued = await this.issuePair(manager, grant);
      await sendTogether(manager, issued.records);
      return issued.response;
    });
  }

  /** A slot for the check; checks still running for the name or address fill the limit: the overflow answer. */
  private async takeSlot(username: string, address: string): Promise<LoginSlot> {
    try {
      return await this.flood.takeSlot(username, address);
    } catch (error) {
      if (error instanceof LoginChecksInFlightError) throw OAuthErrors.serverBusy();
      throw error;
    }
  }

  /** The user, `wrong` for a wrong password (the caller then counts the failure), or `blocked`. */
  private async checkPassword(username: string, password: string, slot: LoginSlot): Promise<UserEntity | 'wrong' | 'blocked'> {
    try {
      return await this.users.verifyCredentials(username, password);
    } catch (error) {
      // Not checked, so not a failure; a slot left behind by a failing database stops counting after PENDING_CHECK_SECONDS.
      await this.flood.release(slot).catch(() => undefined);
      if (error instanceof PasswordChecksBusyError) throw OAuthErrors.serverBusy();
      throw error;
    }
  }

  /**
   * Four statements in one round trip, each committed as it runs (docs/interface.md#refresh-tokens):
   * store the new access token copied from the presented token's row while that token may be used, and
   * the new refresh token copied from it; take the presented token with a conditional UPDATE, the one
   * arbiter between concurrent refreshes, for this grant only if its pair was stored; read the token as
   * it then is. Whatever fails before that UPDATE leaves the used token as it was (the new rows, whose
   * secrets nobody was given, expire unused), so a retry works; the pair is handed out only once the
   * UPDATE changed the row, and the access token is signed then, for the user the row names.
   */
  private async refreshGrant(request: TokenRequest, clientId: string): Promise<TokenResponse> {
    const tokenHash = sha256(request.required('refresh_token'));
    // Before any write: a grant that cannot sign leaves the presented token as it was.
    const key = this.accessTokens.signingKey();
    const outcome = await this.takeRefreshToken(tokenHash, clientId);
    if ('taken' in outcome) {
      const { uid, jti, now, refreshToken } = outcome.taken;
      return this.pair(await this.accessTokens.sign({ uid, clientId }, jti, now, key), refreshToken);
    }
    if ('reuse' in outcome) {
      // A used token came back: someone holds a copy, so nothing descended from its grant is trusted.
      await runInTransaction(this.dataSource, (manager) => revokeFamily(manager, outcome.reuse, new Date(this.clock.now())));
      this.logger.warn(`Refresh token reused; token family ${outcome.reuse} revoked`);
      throw OAuthErrors.invalidRefreshToken('Token has been revoked');
    }
    switch (outcome.error) {
      case 'client':
        throw OAuthErrors.invalidRefreshToken('Token is not linked to client');
      case 'expired':
        throw OAuthErrors.invalidRefreshToken('Token has expired');
      case 'user':
        // No user credentials were sent: it is the token that no longer grants anything.
        throw OAuthErrors.invalidRefreshToken('The user of the refresh token is blocked');
      default:
        throw OAuthErrors.invalidRefreshToken('Cannot decrypt the refresh token');
    }
  }

  /**
   * The grant's statements, run again while the writes found the token unusable but the read after them
   * found it usable (this client's, unused, unexpired, its user active). The writes ran on an older state
   * than the read: on Galera, wsrep_sync_wait makes reads wait for the cluster, not writes, and a write
   * that changes no row replicates nothing, so no certification catches it; a token issued, or its user
   * created or unblocked, through another node a moment before may not be applied on this one yet when
   * the writes run, and be by the time the read has waited. Running them again, the writes see at least
   * what the read saw, and the UPDATE decides as it does for any refresh.
   */
  private async takeRefreshToken(tokenHash: string, clientId: string): Promise<Exclude<RefreshOutcome, { stale: true }>> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.runRefreshStatements(tokenHash, clientId);
      if (!('stale' in outcome)) return outcome;
      if (attempt >= REFRESH_ATTEMPTS) throw new StaleWritesError('a refresh token usable as read');
    }
  }

  private runRefreshStatements(tokenHash: string, clientId: string): Promise<RefreshOutcome> {
    return runStatements(this.dataSource, async (manager): Promise<RefreshOutcome> => {
      const presented = { tokenHash, clientId, at: new Date(this.clock.now()) };
      const now = Math.floor(presented.at.getTime() / 1000);
      const jti = newJti();
      const refresh = this.refreshTokens.issueBesideAccess(manager, jti, now);
      const writes = [
        this.accessTokens.recordForRefresh(manager, jti, now, presented),
        refresh.record,
        this.refreshTokens.take(manager, presented, jti),
      ];
      const { changed, rows } = await sendThenRead<PresentedRow>(manager, writes, this.refreshTokens.read(presented));
      const stored = rows[0] && this.refreshTokens.presented(manager, rows[0]);
      if (changed[2] === 1 && stored) return { taken: { uid: stored.uid, jti, now, refreshToken: refresh.token } };
      // Stored while the token could be used, but another refresh took it first: this pair is never handed out.
      if (changed[0] === 1) await this.discardPair(manager, jti, refresh.tokenHash);
      if (!stored) return { error: 'unknown' };
      if (stored.clientId !== clientId) return { error: 'client' };
      if (stored.revoked) return { reuse: stored.familyId };
      if (stored.expiresAt.getTime() <= presented.at.getTime()) return { error: 'expired' };
      if (!stored.userActive) return { error: 'user' };
      return { stale: true };
    });
  }

  private async issuePair(manager: EntityManager, grant: TokenGrant): Promise<IssuedPair> {
    const now = Math.floor(this.clock.now() / 1000);
    const access = await this.accessTokens.issue(manager, grant, now);
    const refresh = this.refreshTokens.issue(manager, grant, now);
    return { response: this.pair(access.token, refresh.token), records: [access.record, refresh.record] };
  }

  private pair(accessToken: string, refreshToken: string): TokenResponse {
    return { token_type: 'Bearer', expires_in: this.config.tokens.accessTokenTtl, access_token: accessToken, refresh_token: refreshToken };
  }

  private async discardPair(manager: EntityManager, jti: string, refreshTokenHash: string): Promise<void> {
    await this.refreshTokens.discard(manager, refreshTokenHash);
    await this.accessTokens.discard(manager, jti);
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown }).driverError?.code ?? (error as { code?: unknown }).code;
  return code === 'ER_NO_REFERENCED_ROW_2' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
