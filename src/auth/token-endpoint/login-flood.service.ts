import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { setTimeout as delay } from 'node:timers/promises';
import { type EntityManager, type FindOptionsWhere, LessThan, MoreThan, Not, Repository } from 'typeorm';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import { databaseTimeLeft, withDatabaseBudget } from '../../database/database-deadline.js';
import { LoginFailureEntity, PENDING_CHECK_SECONDS } from './login-failure.entity.js';
import { OAuthErrors } from './oauth-errors.js';

type FloodKey = 'username' | 'address';

/**
 * An attempt among the first to arrive while a burst is over the limit counts again after SLOT_WAIT_MS,
 * doubling up to SLOT_WAIT_MAX_MS, while the attempts after it step back. It waits at most half of
 * DB_REQUEST_TIMEOUT_MS, and only while half of its request's database time is left for its check and
 * tokens; then it gets the overflow answer.
 */
const SLOT_WAIT_MS = 10;
const SLOT_WAIT_MAX_MS = 100;
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

/** A password check's place in the flood count: its own `login_failures` row, pending until the check ends. */
export interface LoginSlot {
  id: number;
}

/** The limit was reached by checks still running, not by failures: the caller may come back shortly. */
export class LoginChecksInFlightError extends Error {
  constructor() {
    super('Too many password checks are running for this name or address.');
  }
}

/**
 * Failed password grants per user name and per client address, counted in the database so that the
 * limits hold across instances (Drupal's flood control for `user.failed_login_*`).
 *
 * An attempt takes its slot before its password is checked: it inserts its row, pending (committed
 * on its own), and only then counts the rows in the window, its own included: failures and pending
 * checks. A wrong password turns the row into a failure; the right one, or a check that never ended
 * (a server fault), deletes it. Because every attempt counts after its own row is committed, the k-th
 * attempt to insert sees at least k rows, so no more than `limit` checks can be running or have failed
 * inside the window, however many arrive at once and on however many instances. When a burst is over
 * the limit, those that arrived first (the smaller ids) wait for the others to step back, so the first
 * `limit` are checked: a row is only ever taken by a count that holds every row, so waiting keeps the
 * bound. Over the limit, only failures earn the 429 that blames them; an attempt over it for checks
 * still running is told to come back shortly (LoginChecksInFlightError). A refused integration key is a
 * failure of its address alone (a row without user name).
 */
@Injectable()
export class LoginFloodService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectRepository(LoginFailureEntity) private readonly failures: Repository<LoginFailureEntity>,
  ) {}

  /**
   * Takes a slot for one password check. Throws the 429 answer when failures reached either limit, or
   * LoginChecksInFlightError when checks still running fill what the failures leave.
   */
  async takeSlot(username: string, address: string): Promise<LoginSlot> {
    const taken = await this.take({ username: normaliseName(username), address, pending: true }, ['username', 'address']);
    if ('slot' in taken) return taken.slot;
    if (taken.retryAfter === null) throw new LoginChecksInFlightError();
    throw OAuthErrors.tooManyAttempts(LOGIN_FLOOD_MESSAGES[taken.over], taken.retryAfter);
  }

  /** The password was wrong: the slot stays taken as a failure, dated now. */
  async fail(slot: LoginSlot): Promise<void> {
    await this.ownBudget(() =>
      this.failures.update({ id: slot.id }, { pending: false, attemptedAt: wholeSeconds(new Date(this.clock.now())) }),
    );
  }

  /**
   * Counts a refused integration key against its client address, together with the failed password
   * grants from there (docs/interface.md#failed-login-limits). Returns null, or, when the address is
   * over its limit, the seconds until it may try again (that attempt then not counted).
   */
  async countRefusedKey(address: string): Promise<number | null> {
    const taken = await this.take({ username: null, address, pending: false }, ['address']);
    return 'slot' in taken ? null : (taken.retryAfter ?? 1);
  }

  /**
   * Inserts the attempt's row (committed on its own), then counts the failures and pending checks in
   * each key's window, its own row included. Within every limit, the slot is taken. Over one, the
   * attempt steps back (its row removed) when the failures and the checks that arrived before it (a
   * smaller id) already fill the limit; otherwise it is among the first to arrive and waits for those
   * after it to step back, counting again, so that a burst has its first `limit` checked rather than
   * every attempt refusing itself for the others. `retryAfter` is null when the other failures alone
   * are below the limit.
   */
  private async take(
    attempt: { username: string | null; address: string; pending: boolean },
    keys: FloodKey[],
  ): Promise<{ slot: LoginSlot } | { over: FloodKey; retryAfter: number | null }> {
    const row = { ...attempt, attemptedAt: wholeSeconds(new Date(this.clock.now())) };
    const inserted = await this.failures.insert(row);
    // One row inserted: one identifier.
    const slot: LoginSlot = { id: Number(inserted.identifiers[0]!.id) };
    try {
      const waitingSince = performance.now();
      for (let round = 0; ; round++) {
        const now = this.clock.now();
        let waiting = false;
        for (const key of keys) {
          const place = await this.place(slot, key, row[key]!, now);
          if (place === 'within') continue;
          if (place === 'first' && attempt.pending && (await this.mayWait(round, waitingSince))) {
            waiting = true;
            continue;
          }
          await this.release(slot);
          const rule = RULES[key](this.config.loginLimits);
          const otherFailures = { [key]: row[key]!, pending: false, attemptedAt: MoreThan(windowStart(rule, now)), id: Not(slot.id) };
          if ((await this.failures.countBy(otherFailures)) < rule.limit) return { over: key, retryAfter: null };
          return { over: key, retryAfter: await this.retryAfter(otherFailures, rule, now) };
        }
        if (!waiting) return { slot };
      }
    } catch (error) {
      await this.release(slot).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Where the attempt stands for one key: `within` the limit counting every failure and pending check;
   * over it but among the `first` to arrive (the failures and the checks before it leave it a place);
   * or `after` the limit.
   */
  private async place(slot: LoginSlot, key: FloodKey, value: string, now: number): Promise<'within' | 'first' | 'after'> {
    const rule = RULES[key](this.config.loginLimits);
    const failed = { [key]: value, pending: false, attemptedAt: MoreThan(windowStart(rule, now)) };
    const running = { [key]: value, pending: true, attemptedAt: MoreThan(pendingStart(rule, now)) };
    if ((await this.failures.countBy([failed, running])) <= rule.limit) return 'within';
    const before = await this.failures.countBy([failed, { ...running, id: LessThan(slot.id) }]);
    // Its own row is not among those before it: with it, one more.
    return before + 1 <= rule.limit ? 'first' : 'after';
  }

  /** Waits SLOT_WAIT_MS, doubling each round up to SLOT_WAIT_MAX_MS, before counting again; false once the wait would pass half of DB_REQUEST_TIMEOUT_MS or leave the request less than half its database time. */
  private async mayWait(round: number, waitingSince: number): Promise<boolean> {
    const half = this.config.database.requestTimeoutMs / 2;
    const pause = Math.min(SLOT_WAIT_MS * 2 ** round, SLOT_WAIT_MAX_MS);
    if (performance.now() + pause - waitingSince > half || databaseTimeLeft() - pause < half) return false;
    await delay(pause);
    return true;
  }

  /** Gives the slot back: the password was right, or was never checked (a server fault). */
  async release(slot: LoginSlot): Promise<void> {
    await this.ownBudget(() => this.failures.delete({ id: slot.id }));
  }

  /**
   * A slot's last write settles what its request started, so it has a database budget of its own: under
   * the request's, a check that ended after the request's deadline would leave its row pending, counted
   * against the name and the address for PENDING_CHECK_SECONDS, and a wrong password uncounted.
   */
  private ownBudget<T>(write: () => Promise<T>): Promise<T> {
    return withDatabaseBudget(this.config.database.requestTimeoutMs, write);
  }

  /**
   * Forgets failures older than either window, and pending rows that no longer count (left by a crashed
   * instance or an unreachable database); called now and then, not on every request.
   */
  async prune(now = this.clock.now()): Promise<void> {
    const { perUsername, perAddress } = this.config.loginLimits;
    const longest = Math.max(perUsername.windowSeconds, perAddress.windowSeconds);
    await this.failures.delete({ attemptedAt: LessThan(new Date(now - longest * 1000)) });
    await this.failures.delete({ pending: true, attemptedAt: LessThan(new Date(now - PENDING_CHECK_SECONDS * 1000)) });
  }

  /** Seconds until the oldest of the last `limit` other failures leaves the window. */
  private async retryAfter(others: FindOptionsWhere<LoginFailureEntity>, rule: FloodRule, now: number): Promise<number> {
    const recent = await this.failures.find({
      select: { id: true, attemptedAt: true },
      where: others,
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

/** Pending rows count from the later of the window's start and PENDING_CHECK_SECONDS ago. */
function pendingStart(rule: FloodRule, now: number): Date {
  return new Date(Math.max(windowStart(rule, now).getTime(), now - PENDING_CHECK_SECONDS * 1000));
}

function normaliseName(username: string): string {
  return username.trim().toLowerCase().slice(0, 255);
}
