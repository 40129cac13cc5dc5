import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, type FindOptionsWhere, LessThan, MoreThan, Not, Repository } from 'typeorm';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import { LoginFailureEntity } from './login-failure.entity.js';
import { OAuthErrors } from './oauth-errors.js';

type FloodKey = 'username' | 'address';
type FloodRule = AppConfig['loginLimits']['perUsername'];

const RULES: Record<FloodKey, (limits: AppConfig['loginLimits']) => FloodRule> = {
  username: (limits) => limits.perUsername,
  address: (limits) => limits.perAddress,
};

/** The 429 texts, by the limit reached (the OpenAPI document shows the one for a user name). */
export const LOGIN_FLOOD_MESSAGES: Record<FloodKey, string> = {
  username: 'Too many failed login attempts for this account. It is temporarily blocked. Try again later.',
  address: 'Too many failed login attempts from your IP address. This IP address is temporarily blocked. Try again later.',
};

/** A password check's place in the flood count: its own `login_failures` row. */
export interface LoginSlot {
  id: number;
}

/**
 * Failed password grants per user name and per client address, counted in the database so that the
 * limits hold across instances (Drupal's flood control for `user.failed_login_*`).
 *
 * An attempt takes its slot before its password is checked: it inserts its row (committed on its
 * own), and only then counts the rows in the window, its own included. A failed check leaves the row
 * (it is the failure); a successful one deletes it. Because every attempt counts after its own row
 * is committed, the k-th attempt to insert sees at least k rows, so no more than `limit` checks can
 * be running or have failed inside the window, however many arrive at once and on however many
 * instances. A refused integration key is a failure of its address alone (a row without user name).
 */
@Injectable()
export class LoginFloodService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectRepository(LoginFailureEntity) private readonly failures: Repository<LoginFailureEntity>,
  ) {}

  /** Takes a slot for one password check, or throws the 429 answer when either limit is reached. */
  async takeSlot(username: string, address: string): Promise<LoginSlot> {
    const taken = await this.take({ username: normaliseName(username), address }, ['username', 'address']);
    if ('slot' in taken) return taken.slot;
    throw OAuthErrors.tooManyAttempts(LOGIN_FLOOD_MESSAGES[taken.over], taken.retryAfter);
  }

  /**
   * Counts a refused integration key against its client address, together with the failed password
   * grants from there (docs/interface.md#failed-login-limits). Returns null, or, when the address is
   * over its limit, the seconds until it may try again (that attempt then not counted).
   */
  async countRefusedKey(address: string): Promise<number | null> {
    const taken = await this.take({ username: null, address }, ['address']);
    return 'slot' in taken ? null : taken.retryAfter;
  }

  /**
   * Inserts the attempt's row (committed on its own), then counts the rows in each key's window, its
   * own included; over a limit, the row is removed again.
   */
  private async take(
    attempt: { username: string | null; address: string },
    keys: FloodKey[],
  ): Promise<{ slot: LoginSlot } | { over: FloodKey; retryAfter: number }> {
    const now = this.clock.now();
    const row = { ...attempt, attemptedAt: wholeSeconds(new Date(now)) };
    const inserted = await this.failures.insert(row);
    // One row inserted: one identifier.
    const slot: LoginSlot = { id: Number(inserted.identifiers[0]!.id) };
    for (const key of keys) {
      const rule = RULES[key](this.config.loginLimits);
      const value = row[key]!;
      const counted = await this.failures.countBy({ [key]: value, attemptedAt: MoreThan(windowStart(rule, now)) });
      if (counted > rule.limit) {
        await this.release(slot);
        return { over: key, retryAfter: await this.retryAfter({ [key]: value, id: Not(slot.id) }, rule, now) };
      }
    }
    return { slot };
  }

  /** Gives the slot back: the password was right, or was never checked. */
  async release(slot: LoginSlot): Promise<void> {
    await this.failures.delete({ id: slot.id });
  }

  /** Forgets failures older than either window (called now and then, not on every request). */
  async prune(now = this.clock.now()): Promise<void> {
    const { perUsername, perAddress } = this.config.loginLimits;
    const longest = Math.max(perUsername.windowSeconds, perAddress.windowSeconds);
    await this.failures.delete({ attemptedAt: LessThan(new Date(now - longest * 1000)) });
  }

  /** Seconds until the oldest of the last `limit` other rows leaves the window. */
  private async retryAfter(others: FindOptionsWhere<LoginFailureEntity>, rule: FloodRule, now: number): Promise<number> {
    const recent = await this.failures.find({
      select: { id: true, attemptedAt: true },
      where: { ...others, attemptedAt: MoreThan(windowStart(rule, now)) },
      order: { attemptedAt: 'DESC' },
      take: rule.limit,
    });
    const oldest = recent.at(-1)?.attemptedAt.getTime() ?? now;
    return Math.max(1, Math.ceil((oldest + rule.windowSeconds * 1000 - now) / 1000));
  }
}

/**
 * Forgets a user name's failed password grants, lifting its limit: an administrator's answer to a
 * name locked by someone else's guesses (user:unblock). The address limit is left as it is.
 */
export async function forgetFailedLogins(manager: EntityManager, username: string): Promise<number> {
  const result = await manager.delete(LoginFailureEntity, { username: normaliseName(username) });
  return result.affected ?? 0;
}

function windowStart(rule: FloodRule, now: number): Date {
  return new Date(now - rule.windowSeconds * 1000);
}

function normaliseName(username: string): string {
  return username.trim().toLowerCase().slice(0, 255);
}
