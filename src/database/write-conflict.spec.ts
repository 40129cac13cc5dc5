import { withDatabaseDeadline } from './database-deadline.js';
import { isWriteConflict, retryWriteConflicts, WRITE_CONFLICT_ATTEMPTS, writeConflictRetries } from './write-conflict.js';

/** As mysql2 reports a deadlock or a Galera certification failure, wrapped by TypeORM. */
const conflict = () =>
  Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
    driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
  });

describe(retryWriteConflicts.name, () => {
  it('runs the work again after a write conflict and answers its result', async () => {
    const outcomes = [conflict(), conflict()];
    let attempts = 0;
    const retriesBefore = writeConflictRetries();

    const result = await retryWriteConflicts(async () => {
      attempts++;
      const next = outcomes.shift();
      if (next) throw next;
      return 'stored';
    });

    expect(result).toBe('stored');
    expect(attempts).toBe(3);
    expect(writeConflictRetries() - retriesBefore).toBe(2);
  });

  it(`gives up after ${WRITE_CONFLICT_ATTEMPTS} attempts with the last conflict`, async () => {
    let attempts = 0;
    const last = conflict();

    await expect(
      retryWriteConflicts(async () => {
        attempts++;
        throw attempts === WRITE_CONFLICT_ATTEMPTS ? last : conflict();
      }),
    ).rejects.toBe(last);
    expect(attempts).toBe(WRITE_CONFLICT_ATTEMPTS);
  });

  it('never runs the work again for another error', async () => {
    let attempts = 0;
    const duplicate = Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 });

    await expect(
      retryWriteConflicts(async () => {
        attempts++;
        throw duplicate;
      }),
    ).rejects.toBe(duplicate);
    expect(attempts).toBe(1);
  });

  it('does not try again once the caller has no time left', async () => {
    let attempts = 0;

    await expect(
      withDatabaseDeadline(Date.now() - 1, () =>
        retryWriteConflicts(async () => {
          attempts++;
          throw conflict();
        }),
      ),
    ).rejects.toMatchObject({ driverError: { code: 'ER_LOCK_DEADLOCK' } });
    expect(attempts).toBe(1);
  });
});

describe(isWriteConflict.name, () => {
  it('knows error 1213 by code or number, not a lock wait timeout (1205)', () => {
    expect(isWriteConflict(conflict())).toBe(true);
    expect(isWriteConflict({ errno: 1213 })).toBe(true);
    expect(isWriteConflict({ code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 })).toBe(false);
    expect(isWriteConflict(undefined)).toBe(false);
  });
});
