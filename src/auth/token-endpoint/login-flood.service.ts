import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { wholeSeconds } from '../users/users.service.js';
import { LoginFailureEntity } from './login-failure.entity.js';
import { OAuthErrors } from './oauth-errors.js';

type FloodKey = 'username' | 'address';

const MESSAGES: Record<FloodKey, string> = {
  username: 'Too many failed login attempts for this account. It is temporarily blocked. Try again later.',
  address: 'Too many failed login attempts from your IP address. This IP address is temporarily blocked. Try again later.',
};

/**
 * Failed password grants per user name and per client address, counted in the database so that the
 * limits hold across instances (Drupal's flood control for `user.failed_login_*`).
 */
@Injectable()
export class LoginFloodService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(LoginFailureEntity) private readonly failures: Repository<LoginFailureEntity>,
  ) {}

  /** Throws the 429 answer once either limit is reached, whatever the password. */
  async assertAllowed(username: string, address: string, now = new Date()): Promise<void> {
    const limits = this.config.loginLimits;
    for (const [key, value, { limit, windowSeconds }] of [
      ['username', normalise(username), limits.perUsername],
      ['address', address, limits.perAddress],
    ] as const) {
      const recent = await this.failures.find({
        select: { id: true, attemptedAt: true },
        where: { [key]: value, attemptedAt: MoreThan(new Date(now.getTime() - windowSeconds * 1000)) },
        order: { attemptedAt: 'DESC' },
        take: limit,
      });
      if (recent.length >= limit) {
        // Allowed again once the oldest of the last `limit` failures leaves the window.
        const freeAt = recent[limit - 1].attemptedAt.getTime() + windowSeconds * 1000;
        throw OAuthErrors.tooManyAttempts(MESSAGES[key], Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)));
      }
    }
  }

  async recordFailure(username: string, address: string, now = new Date()): Promise<void> {
    await this.failures.insert({ username: normalise(username), address, attemptedAt: wholeSeconds(now) });
  }

  /** Forgets failures older than either window (called now and then, not on every request). */
  async prune(now = new Date()): Promise<void> {
    const { perUsername, perAddress } = this.config.loginLimits;
    const longest = Math.max(perUsername.windowSeconds, perAddress.windowSeconds);
    await this.failures.delete({ attemptedAt: LessThan(new Date(now.getTime() - longest * 1000)) });
  }
}

function normalise(username: string): string {
  return username.trim().toLowerCase().slice(0, 255);
}
