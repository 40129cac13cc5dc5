import { jest } from '@jest/globals';
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

/** A data source whose one count query waits until the test lets it answer (with `row`). */
function countingDataSource(row: typeof ROW = ROW) {
  const answers: Array<() => void> = [];
  const builder = {
    select: () => builder,
    addSelect: () => builder,
    from: () => builder,
    setParameters: () => builder,
    getRawOne: () => new Promise((resolve) => answers.push(() => resolve(row))),
  };
  return { dataSource: { createQueryBuilder: () => builder } as unknown as DataSource, answers };
}

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
    await sut.refresh().catch(() => undefined);
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
    const { dataSource, answers } = countingDataSource({ ...ROW, next_due: nextDue.toISOString().replace('T', ' ').replace('Z', '') });
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '600' }));

    sut.onApplicationBootstrap();
    answers[0]!();
    await sut.refresh().catch(() => undefined);
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
    const { dataSource, answers } = countingDataSource({ ...ROW, next_due: nextDue.toISOString().replace('T', ' ').replace('Z', '') });
    const sut = new SensorGaugesService(dataSource, metrics, { now: () => now }, loadConfig({ SENSOR_METRICS_INTERVAL: '60' }));

    sut.onApplicationBootstrap();
    answers[0]!();
    await sut.refresh().catch(() => undefined);
    jest.advanceTimersByTime(60_000);
    expect(answers).toHaveLength(2);
    answers[1]!();
    await sut.refresh().catch(() => undefined);
    jest.advanceTimersByTime(59_999);
    expect(answers).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(answers).toHaveLength(3);
    answers[2]!();
    await sut.beforeApplicationShutdown();
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
