import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ClientsService } from '../clients/clients.service.js';
import { AccessTokensService, type TokenGrant } from '../tokens/access-tokens.service.js';
import { RefreshTokensService } from '../tokens/refresh-tokens.service.js';
import { runInTransaction } from '../../database/run-in-transaction.js';
import { revokeFamily } from '../tokens/token-family.js';
import { PasswordChecksBusyError } from '../users/password-check-queue.js';
import type { UserEntity } from '../users/user.entity.js';
import { isValidName, nameForLog } from '../users/user-name.js';
import { UsersService } from '../users/users.service.js';
import { AuthHousekeepingService } from './auth-housekeeping.service.js';
import { isGrantType } from './grant-types.js';
import { LoginFloodService, type LoginSlot } from './login-flood.service.js';
import { OAuthErrors } from './oauth-errors.js';
import type { TokenRequest } from './token-request.js';
import type { TokenResponse } from './token-response.js';

type RefreshOutcome = { pair: TokenResponse } | { reuse: string } | { error: 'expired' | 'client' | 'unknown' | 'user' };

/** Housekeeping runs on about one password grant in this many. */
const PRUNE_EVERY = 20;

/** The password and refresh_token grants of the token endpoint. */
@Injectable()
export class TokenGrantsService {
  private readonly logger = new Logger('OAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly clients: ClientsService,
    private readonly users: UsersService,
    private readonly accessTokens: AccessTokensService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly flood: LoginFloodService,
    private readonly housekeeping: AuthHousekeepingService,
  ) {}

  async grant(request: TokenRequest): Promise<TokenResponse> {
    const grantType = request.optional('grant_type');
    if (!isGrantType(grantType)) throw OAuthErrors.unsupportedGrantType();
    const { clientId, clientSecret } = request.clientCredentials();
    const client = await this.clients.authenticate(clientId, clientSecret);
    if (!client) throw OAuthErrors.invalidClient(request.usedBasicAuth);
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
    const slot = await this.flood.takeSlot(username, request.clientAddress);
    const user = await this.checkPassword(username, password, slot);
    if (!user) {
      this.logger.warn(`Failed password grant for "${nameForLog(username)}" from ${request.clientAddress}`);
      throw OAuthErrors.invalidCredentials();
    }
    await this.flood.release(slot);
    if (Math.random() < 1 / PRUNE_EVERY) await this.housekeeping.prune();
    const grant = { uid: user.uid, clientId, familyId: randomUUID() };
    return runInTransaction(this.dataSource, (manager) => this.issuePair(manager, grant));
  }

  /** The user, or null when the check failed (the slot then stays taken: it is the failure). */
  private async checkPassword(username: string, password: string, slot: LoginSlot): Promise<UserEntity | null> {
    try {
      return await this.users.verifyCredentials(username, password);
    } catch (error) {
      // Not checked, so not a failure; a slot left behind by a failing database only errs on the safe side.
      await this.flood.release(slot).catch(() => undefined);
      if (error instanceof PasswordChecksBusyError) throw OAuthErrors.serverBusy();
      throw error;
    }
  }

  private async refreshGrant(request: TokenRequest, clientId: string): Promise<TokenResponse> {
    const presented = request.required('refresh_token');
    const outcome = await runInTransaction(this.dataSource, async (manager): Promise<RefreshOutcome> => {
      const now = new Date();
      // The user is read through the transaction's own connection: asking the pool for a second one
      // while holding one deadlocks once as many refreshes run at once as the pool has connections.
      const found = await this.refreshTokens.findWithUserStatus(manager, presented);
      if (!found) return { error: 'unknown' };
      const { stored, userActive } = found;
      if (stored.clientId !== clientId) return { error: 'client' };
      if (stored.revoked) return { reuse: stored.familyId };
      if (stored.expiresAt.getTime() <= now.getTime()) return { error: 'expired' };
      if (!userActive) return { error: 'user' };
      if (!(await this.refreshTokens.revoke(manager, stored.id, now))) return { reuse: stored.familyId };
      return { pair: await this.issuePair(manager, { uid: stored.uid, clientId, familyId: stored.familyId }) };
    });
    if ('pair' in outcome) return outcome.pair;
    if ('reuse' in outcome) {
      // A used token came back: someone holds a copy, so nothing descended from its grant is trusted.
      await runInTransaction(this.dataSource, (manager) => revokeFamily(manager, outcome.reuse, new Date()));
      this.logger.warn(`Refresh token reused; token family ${outcome.reuse} revoked`);
      throw OAuthErrors.invalidRefreshToken('Token has been revoked');
    }
    switch (outcome.error) {
      case 'client':
        throw OAuthErrors.invalidRefreshToken('Token is not linked to client');
      case 'expired':
        throw OAuthErrors.invalidRefreshToken('Token has expired');
      case 'user':
        throw OAuthErrors.invalidCredentials();
      default:
        throw OAuthErrors.invalidRefreshToken('Cannot decrypt the refresh token');
    }
  }

  private async issuePair(manager: Parameters<AccessTokensService['issue']>[0], grant: TokenGrant): Promise<TokenResponse> {
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await this.accessTokens.issue(manager, grant, now);
    const refreshToken = await this.refreshTokens.issue(manager, grant, now);
    return {
      token_type: 'Bearer',
      expires_in: this.config.tokens.accessTokenTtl,
      access_token: accessToken,
      refresh_token: refreshToken,
    };
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown }).driverError?.code ?? (error as { code?: unknown }).code;
  return code === 'ER_NO_REFERENCED_ROW_2' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
