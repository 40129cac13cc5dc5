import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import type { MetricsService, SensorCounts } from '../metrics/metrics.service.js';
import { SensorGaugesService } from './sensor-gauges.service.js';

const ROW = {
  ok: '2',
  overdue: '1',
  no_heartbeat: '0',
  expired: '0',
  sprung: '1',
  oldest_due: '2026-01-01 00:00:00.000',
  next_due: '2026-01-02 00:00:00.000',
};

/**
 * A data source whose count queries each wait until the test lets them answer: `answers[i]()` with
 * `row`, `failures[i]()` with an error, as a database that went away does.
 */
function countingDataSource(row: typeof ROW = ROW) {
  const answers: Array<() => void> = [];
  const failures: Array<() => void> = [];
  const builder = {
    select: () => builder,
    addSelect: () => builder,
    from: () => builder,
    setParameters: () => builder,
    getRawOne: () =>
      new Promise((resolve, reject) => {
        answers.push(() => resolve(row));
        failures.push(() => reject(new Error('Connection lost: The server closed the connection.')));
      }),
  };
  return { dataSource: { createQueryBuilder: () => builder } as unknown as DataSource, answers, failures };
}

/** The text of a due time as SQLite gives it to TypeORM. */
const dueText = (at: number) => new Date(at).toISOString().replace('T', ' ').replace('Z', '');
const GRACE_MS = 15 * 60_000;

describe(SensorGaugesService.name, () => {
  const now = Date.parse('2026-01-01T01:00:00Z');
  let counted: Array<[SensorCounts, number]>;
  let metrics: MetricsService;

  beforeEach(() => {
    jest.useFakeTimers();
    counted = [];
    metrics = { sensorsCounted: (counts: SensorCounts, at: number) => counted.push([counts, at]) } as unknown as MetricsService;
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('counts at start and on every interval, one count at a time', async () => {
    const { dataSource, answers } = countingDataSource();
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '60' }));

    sut.onApplicationBootstrap();
    jest.advanceTimersByTime(60_000);
    expect(answers).toHaveLength(1);
    answers[0]!();
    await sut.refresh();
    jest.advanceTimersByTime(60_000);
    expect(answers).toHaveLength(2);
    answers[1]!();
    await sut.beforeApplicationShutdown();

    expect(counted[0]).toEqual([
      { byState: { ok: 2, overdue: 1, no_heartbeat: 0, expired: 0 }, sprung: 1, oldestOverdueSeconds: 2700 },
      now,
    ]);
  });

  it('counts again when the next sensor falls overdue before the next interval, and not before', async () => {
    // Due 10 minutes and 10 s ago: past the default 15-minute grace, it falls overdue in 4 min 50 s and a second.
    const nextDue = new Date(now - 10 * 60_000 - 10_000);
    const { dataSource, answers } = countingDataSource({ ...ROW, next_due: dueText(nextDue.getTime()) });
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '600' }));

    sut.onApplicationBootstrap();
    answers[0]!();
    await sut.refresh();
    jest.advanceTimersByTime(4 * 60_000 + 50_000);
    expect(answers).toHaveLength(1);
    jest.advanceTimersByTime(1000);
    expect(answers).toHaveLength(2);
    answers[1]!();
    await sut.beforeApplicationShutdown();
  });

  it('counts on the interval alone while the next sensor falls overdue only after the next interval', async () => {
    // Falls overdue a second after each next interval (the clock stands still): only the interval counts.
    const nextDue = new Date(now - 15 * 60_000 + 60_000);
    const { dataSource, answers } = countingDataSource({ ...ROW, next_due: dueText(nextDue.getTime()) });
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '60' }));

    sut.onApplicationBootstrap();
    answers[0]!();
    await sut.refresh();
    jest.advanceTimersByTime(60_000);
    expect(answers).toHaveLength(2);
    answers[1]!();
    await sut.refresh();
    jest.advanceTimersByTime(59_999);
    expect(answers).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(answers).toHaveLength(3);
    answers[2]!();
    await sut.beforeApplicationShutdown();
  });

  it('counts again no sooner than 5 s after a count, however soon the next sensor falls overdue', async () => {
    // Falls overdue a second from now: the count waits 5 s all the same.
    const { dataSource, answers } = countingDataSource({ ...ROW, next_due: dueText(now - GRACE_MS) });
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '600' }));

    sut.onApplicationBootstrap();
    answers[0]!();
    await sut.refresh();
    expect(counted).toHaveLength(1);
    jest.advanceTimersByTime(4999);
    expect(answers).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(answers).toHaveLength(2);
    answers[1]!();
    await sut.beforeApplicationShutdown();
    expect(counted).toHaveLength(2);
  });

  it('keeps the last counts while the database is away, and counts again on the next interval', async () => {
    const { dataSource, answers, failures } = countingDataSource();
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '60' }));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);

    sut.onApplicationBootstrap();
    answers[0]!();
    await sut.refresh();
    jest.advanceTimersByTime(60_000);
    failures[1]!();
    await sut.refresh();

    // Nothing new was handed to the gauges: they keep the first count, and its time says how old it is.
    expect(counted).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith('Could not count the sensors: Connection lost: The server closed the connection.');
    jest.advanceTimersByTime(60_000);
    expect(answers).toHaveLength(3);
    answers[2]!();
    await sut.beforeApplicationShutdown();
    expect(counted).toHaveLength(2);
    warn.mockRestore();
  });

  it('on shutdown stops the timer and waits for the count in progress', async () => {
    const { dataSource, answers } = countingDataSource();
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({}));
    sut.onApplicationBootstrap();
    let stopped = false;

    const stopping = sut.beforeApplicationShutdown().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    answers[0]!();
    await stopping;
    jest.advanceTimersByTime(10 * 60_000);

    expect(counted).toHaveLength(1);
    expect(answers).toHaveLength(1);
  });

  it('counts nothing with the metrics switched off', () => {
    const { dataSource, answers } = countingDataSource();
    new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ METRICS_ENABLED: 'false' })).onApplicationBootstrap();

    jest.advanceTimersByTime(10 * 60_000);

    expect(answers).toEqual([]);
  });
});
