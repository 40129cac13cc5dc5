import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { CLOCK, type Clock, systemClock } from '../../common/time/clock.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import { runInTransaction } from '../../database/run-in-transaction.js';
import { forgetFailedLogins } from '../token-endpoint/login-flood.service.js';
import { revokeUserTokens } from '../tokens/token-family.js';
import { PasswordHasher } from './password-hasher.js';
import { assertAcceptablePassword } from './password-policy.js';
import { InvalidUserInputError, UnknownUserError, UsernameTakenError } from './user-errors.js';
import { isSameName, isValidName, MAX_NAME_LENGTH } from './user-name.js';
import { UserEntity } from './user.entity.js';

export interface CreateUserInput {
  username: string;
  password: string;
  mayCreateSensorRecords: boolean;
}

const INVALID_NAME = `The user name must be 1 to ${MAX_NAME_LENGTH} characters without control characters.`;

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly hasher: PasswordHasher,
    @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  async create(input: CreateUserInput): Promise<UserEntity> {
    const username = input.username.trim();
    if (!isValidName(username)) throw new InvalidUserInputError(INVALID_NAME);
    assertAcceptablePassword(input.password, username);
    // Taken means what the unique index says: on MySQL a name equal to another by its collation
    // (a fullwidth twin, say) is refused, so no account can pass for another one.
    if (await this.findCandidate(username)) throw new UsernameTakenError(username);

    const now = wholeSeconds(new Date(this.clock.now()));
    const user = this.users.create({
      uuid: randomUUID(),
      name: username,
      pass: await this.hasher.hash(input.password),
      status: true,
      mayCreateSensorRecords: input.mayCreateSensorRecords,
      created: now,
      changed: now,
    });
    try {
      return await this.users.save(user);
    } catch (error) {
      // Lost a race with another creation of the same name: the unique index decides.
      if (await this.findCandidate(username)) throw new UsernameTakenError(username);
      throw error;
    }
  }

  /** The account with this uid, without its password hash. */
  findByUid(uid: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ uid });
  }

  /** The user with exactly this name, letter case aside, including the password hash. */
  async findByName(username: string): Promise<UserEntity | null> {
    if (!isValidName(username)) return null;
    const candidate = await this.findCandidate(username);
    return candidate && isSameName(candidate.name, username) ? candidate : null;
  }

  /** The row the database's collation matches (at most one: the name's unique index uses the same comparison). */
  private findCandidate(username: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('user').addSelect('user.pass').where('user.name = :username', { username }).getOne();
  }

  /**
   * The user whose credentials these are, or `wrong` for a wrong password or an unknown name (which takes
   * as long); a blocked user's right password is `blocked`, not a wrong one.
   */
  async verifyCredentials(username: string, password: string): Promise<UserEntity | 'wrong' | 'blocked'> {
    const user = await this.findByName(username);
    const valid = await this.hasher.verify(user?.pass, password);
    if (!valid || !user) return 'wrong';
    return user.status ? user : 'blocked';
  }

  async block(username: string): Promise<UserEntity> {
    if (!isValidName(username)) throw new InvalidUserInputError(INVALID_NAME);
    const user = await this.findByName(username);
    if (!user) throw new UnknownUserError(username);
    await this.users.update({ uid: user.uid }, { status: false, changed: wholeSeconds(new Date(this.clock.now())) });
    return { ...user, status: false };
  }

  /**
   * Lets a blocked user obtain tokens again (and its unexpired, unrevoked tokens work again), and
   * lifts the failed-login limit of its name, which anyone who knows the name can reach. Returns the
   * user and how many failed logins were forgotten.
   */
  async unblock(username: string): Promise<{ user: UserEntity; forgottenFailedLogins: number }> {
    if (!isValidName(username)) throw new InvalidUserInputError(INVALID_NAME);
    const user = await this.findByName(username);
    if (!user) throw new UnknownUserError(username);
    const changed = wholeSeconds(new Date(this.clock.now()));
    const forgottenFailedLogins = await runInTransaction(this.users.manager.connection, async (manager) => {
      await manager.update(UserEntity, { uid: user.uid }, { status: true, changed });
      return forgetFailedLogins(manager, user.name);
    });
    return { user: { ...user, status: true }, forgottenFailedLogins };
  }

  /** Every user, oldest first, without password hashes. */
  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { uid: 'ASC' } });
  }

  /**
   * Sets a new password and, in the same transaction, revokes every token the user holds: whoever
   * knew the old password must not keep access through tokens obtained with it. Returns the user's
   * uid and how many tokens were revoked.
   */
  async setPassword(username: string, password: string): Promise<{ uid: number; revokedTokens: number }> {
    if (!isValidName(username)) throw new InvalidUserInputError(INVALID_NAME);
    const user = await this.findByName(username);
    if (!user) throw new UnknownUserError(username);
    assertAcceptablePassword(password, user.name);
    const pass = await this.hasher.hash(password);
    const now = new Date(this.clock.now());
    const revokedTokens = await runInTransaction(this.users.manager.connection, async (manager) => {
      await manager.update(UserEntity, { uid: user.uid }, { pass, changed: wholeSeconds(now) });
      return revokeUserTokens(manager, user.uid, now);
    });
    return { uid: user.uid, revokedTokens };
  }
}
