import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { AccessTokenEntity } from '../tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../tokens/refresh-token.entity.js';
import { LoginFloodService } from './login-flood.service.js';

/** Drops tokens and failures that can no longer matter; the tables would otherwise only grow. */
@Injectable()
export class AuthHousekeepingService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectRepository(AccessTokenEntity) private readonly accessTokens: Repository<AccessTokenEntity>,
    @InjectRepository(RefreshTokenEntity) private readonly refreshTokens: Repository<RefreshTokenEntity>,
    private readonly flood: LoginFloodService,
  ) {}

  async prune(): Promise<void> {
    const now = this.clock.now();
    await this.accessTokens.delete({ expiresAt: LessThan(new Date(now)) });
    // A used refresh token is kept until no token descended from it can still be alive, so that its
    // reuse is still detected.
    const refreshHorizon = new Date(now - this.config.tokens.refreshTokenTtl * 1000);
    await this.refreshTokens.delete({ expiresAt: LessThan(refreshHorizon) });
    await this.flood.prune(now);
  }
}
