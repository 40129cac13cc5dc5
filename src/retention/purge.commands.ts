import type { DataSource } from 'typeorm';
import { CliError } from '../common/cli/cli-error.js';
import { instant, parse, required } from '../common/cli/command-options.js';
import type { Clock } from '../common/time/clock.js';
import { LeaseTimeoutError, withLease } from '../database/lease.js';
import { RecordPurge } from './record-purge.js';
import { RETENTION_LEASE } from './retention.service.js';

/** How long records:purge waits for a purge running on an instance (the scheduled one) to finish. */
const LEASE_WAIT_SECONDS = 120;
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * records:purge --before DATE [--dry-run] (docs/operations.md#retention): deletes the records received
 * before DATE as the scheduled retention does, holding the same lease; prints how many.
 */
export async function runPurgeCommand(args: string[], dataSource: DataSource, clock: Clock): Promise<Record<string, unknown>> {
  const values = parse(args, { before: { type: 'string' }, 'dry-run': { type: 'boolean' } });
  const before = parseBefore(required(values, 'before'), clock.now());
  const purge = new RecordPurge(dataSource);
  if (values['dry-run'] === true) {
    const { records } = await purge.count(before);
    return { before: instant(before), dry_run: true, records };
  }
  try {
    const records = await withLease(dataSource, RETENTION_LEASE, LEASE_WAIT_SECONDS, (lease) =>
      purge.deleteRecords(before, { signal: lease.signal }),
    );
    return { before: instant(before), dry_run: false, records };
  } catch (error) {
    if (error instanceof LeaseTimeoutError) throw new CliError(`${error.message}; try again later.`);
    throw error;
  }
}

/** A day (midnight UTC) or an instant with its zone; never in the future, which would take records just stored. */
function parseBefore(text: string, now: number): Date {
  const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (!DATE.test(text) || Number.isNaN(date.getTime()) || (text.length === 10 && date.toISOString().slice(0, 10) !== text)) {
    throw new CliError(`--before must be a date (2026-01-31) or an instant with its zone (2026-01-31T12:00:00Z), got "${text}".`);
  }
  if (date.getTime() > now) throw new CliError(`--before must not be in the future, got "${text}".`);
  return date;
}
