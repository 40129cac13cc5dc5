import uPlot from 'uplot';

/** The events a record may report (docs/interface.md#validation), each with its marker's colour. */
const EVENTS = [
  { name: 'Sprung', colour: '#b3261e' },
  { name: 'Set', colour: '#1b6e3a' },
  { name: 'Heartbeat', colour: '#5f6368' },
  { name: 'Vibration', colour: '#6b3fa0' },
  { name: 'Baitlevel', colour: '#8a5a00' },
] as const;

const BATTERY_COLOUR = '#1f5fad';

export interface ChartPoint {
  /** Seconds since the epoch (the device time). */
  time: number;
  event: string;
  battery: number | null;
}

/**
 * Battery voltage as a line and the events as markers, one row per kind of event named on the right
 * axis, over [from, to] (seconds), with times on the site's clock.
 */
export function drawChart(target: HTMLElement, points: ChartPoint[], range: { from: number; to: number }, timeZone: string): uPlot {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  const times = sorted.map((point) => point.time);
  const battery = sorted.map((point) => point.battery);
  const markers = EVENTS.map((kind, index) => sorted.map((point) => (point.event === kind.name ? index + 1 : null)));
  const width = Math.max(280, Math.floor(target.clientWidth || 600));
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short' });
  const options: uPlot.Options = {
    width,
    height: 260,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
    scales: {
      x: { time: true, range: [range.from, range.to] },
      V: { auto: true, range: (_chart, min, max) => [Math.min(min ?? 3, 3) - 0.1, Math.max(max ?? 4, 3.4) + 0.1] },
      events: { auto: false, range: [0.5, EVENTS.length + 0.5] },
    },
    axes: [
      { stroke: '#333', values: (_chart, splits) => splits.map((seconds) => day.format(seconds * 1000)) },
      { scale: 'V', label: 'Battery (V)', stroke: '#333', size: 50 },
      {
        scale: 'events',
        side: 1,
        stroke: '#333',
        size: 80,
        grid: { show: false },
        splits: () => EVENTS.map((_kind, index) => index + 1),
        values: (_chart, splits) => splits.map((split) => EVENTS[split - 1]?.name ?? ''),
      },
    ],
    series: [
      {},
      { label: 'Battery (V)', scale: 'V', stroke: BATTERY_COLOUR, width: 2, spanGaps: true, points: { show: true, size: 4 } },
      ...EVENTS.map((kind) => ({
        label: kind.name,
        scale: 'events',
        stroke: kind.colour,
        fill: kind.colour,
        paths: () => null,
        points: { show: true, size: 9, stroke: kind.colour, fill: kind.colour },
      })),
    ],
    legend: { live: false },
    cursor: { show: false },
  };
  return new uPlot(options, [times, battery, ...markers] as uPlot.AlignedData, target);
}
