import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThan, Repository } from 'typeorm';
import { RoundLoop } from '../../common/process/round-loop.js';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { withLeaseIfFree } from '../../database/lease.js';
import { AccessTokenEntity } from '../tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../tokens/refresh-token.entity.js';
import { LoginFloodService } from './login-flood.service.js';

/** The lease of the one instance pruning at a time (src/database/lease.ts). */
const PRUNE_LEASE = 'token-housekeeping';

/**
 * Drops tokens and failures that can no longer matter; the tables would otherwise only grow. Runs
 * every TOKEN_PRUNE_INTERVAL seconds on one instance at a time: on a Galera cluster two nodes
 * deleting the same rows would fail each other's certification. Stopped before the database pool
 * closes on shutdown, waiting for a prune in progress.
 */
@Injectable()
export class AuthHousekeepingService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuthHousekeeping');
  /**
   * The schedule's prunes: a tick is skipped while the previous prune runs here or another instance
   * holds the lease. Outside any request's database budget, as migrations are: the lease renews
   * itself while the deletes run.
   */
  private readonly rounds = new RoundLoop(() => withLeaseIfFree(this.dataSource, PRUNE_LEASE, () => this.prune()), {
    whileRunning: 'join',
    failed: (error) => this.logger.warn(`Could not prune expired tokens: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly dataSource: DataSource,
    @InjectRepository(AccessTokenEntity) private readonly accessTokens: Repository<AccessTokenEntity>,
    @InjectRepository(RefreshTokenEntity) private readonly refreshTokens: Repository<RefreshTokenEntity>,
    private readonly flood: LoginFloodService,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config.tokens.pruneIntervalSeconds * 1000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** Prunes now, by the injected clock: what is expired by it goes, whatever it says is alive stays. */
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
