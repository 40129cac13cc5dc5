// @ts-check
// The fleet page (docs/fleet-page.md) in Debian's Chromium, driven by playwright-core: a user with
// `--page-sensors` sensors (one report each, sent through the batch route), then, in a fresh browser
// each round, the time from the click on "Sign in" to the table drawn (its caption counting every
// sensor and its first page of rows in place), a dev_id search and a state filter over all of them,
// and what crossed the wire: the page's own files (a first visit: nothing cached) and the sensor list.
import { randomBytes } from 'node:crypto';
import { launchChromium, requireChromium } from '../../test/utils/chromium.js';
import { median } from '../report.js';
import { passwordGrant } from '../token-load.js';

/** Reports per batch while seeding: small enough to commit within the database deadline on a busy machine. */
const BATCH = 250;
const TIMEOUT_MS = 300_000;
/** Whether the table's caption says a filter has narrowed it (run in the page). */
const FILTERED = () =>
  /^\d+ of \d+ sensors match/.test(/** @type {any} */ (globalThis).document.querySelector('#fleet-caption')?.textContent ?? '');

/** @type {import('./index.js').Scenario} */
export default {
  name: 'page',
  about: 'the fleet page in Chromium: sign-in to the table drawn with many sensors, search and filter, bytes transferred',
  options: [
    { name: 'page-sensors', env: 'BENCH_PAGE_SENSORS', default: 10_000, help: "the page user's sensors; 0 skips" },
    { name: 'page-rounds', env: 'BENCH_PAGE_ROUNDS', default: 5, help: 'sign-ins timed, each in a fresh browser context' },
  ],

  async run({ stand, options, log }) {
    const service = stand.service;
    if (!service || options.pageSensors <= 0) return null;
    requireChromium();
    const username = 'bench-page';
    const password = randomBytes(12).toString('hex');
    await service.cli(['user:create', '--username', username, '--password', password]);
    const grant = () => passwordGrant(service.url, { client_id: 'fleet-page', username, password });
    const token = (await grant()).access_token;

    log(`fleet page: ${options.pageSensors} sensors for ${username}`);
    for (let first = 0; first < options.pageSensors; first += BATCH) {
      const reports = Array.from({ length: Math.min(BATCH, options.pageSensors - first) }, (_unused, offset) => report(first + offset));
      await storeBatch(service.url, token, reports);
    }

    const browser = await launchChromium(TIMEOUT_MS);
    /** @type {Array<{ signInMs: number; searchMs: number; filterMs: number; pageBytes: number; listBytes: number; listBodyBytes: number }>} */
    const rounds = [];
    try {
      for (let round = 0; round < options.pageRounds; round++) {
        rounds.push(await oneSignIn(browser, service.url, username, password, options.pageSensors));
        log(`fleet page round ${round + 1}: table drawn ${rounds.at(-1)?.signInMs.toFixed(0)} ms after the click`);
      }
    } finally {
      await browser.close();
    }
    const measured = {
      sensors: options.pageSensors,
      rounds,
      signInMs: median(rounds.map((r) => r.signInMs)),
      searchMs: median(rounds.map((r) => r.searchMs)),
      filterMs: median(rounds.map((r) => r.filterMs)),
      pageBytes: rounds[0]?.pageBytes,
      listBytes: rounds[0]?.listBytes,
      listBodyBytes: rounds[0]?.listBodyBytes,
    };
    return { json: measured, table: () => fleetPageTable(measured, stand.machine) };
  },
};

/** A batch stored, tried again after a 503 (nothing was stored then) as its Retry-After says. */
async function storeBatch(url, token, reports) {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${url}/api-sensor/iot/sensor-records`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(reports),
    });
    if (response.status === 201) return;
    const text = await response.text();
    if (response.status !== 503 || attempt === 10) throw new Error(`batch answered ${response.status}: ${text.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

/** Sensor i: mostly ok, every 10th without heartbeat, every 17th expired, every 7th sprung. */
function report(i) {
  const timeout = i % 10 === 0 ? -1 : i % 17 === 0 ? 0 : 86_400;
  return {
    dev_id: `bench-page-${String(i).padStart(6, '0')}`,
    metadata: { time: new Date().toISOString(), gateways: [{ rssi: -90 - (i % 20), snr: 7.5 }] },
    payload_fields: {
      type: 'sensor_report',
      field_event: i % 7 === 0 ? 'Sprung' : 'Heartbeat',
      field_battery_voltage: 3.2 + (i % 50) / 100,
      field_timeout: timeout,
    },
  };
}

/**
 * One visit in a fresh context (an empty cache): bytes counted by the DevTools protocol as they
 * arrived (`encodedDataLength`: headers and the body as sent, compressed or not).
 */
async function oneSignIn(browser, url, username, password, sensors) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(TIMEOUT_MS);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  /** @type {Map<string, string>} */
  const urls = new Map();
  let pageBytes = 0;
  let listBytes = 0;
  cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  cdp.on('Network.loadingFinished', (event) => {
    const path = new URL(urls.get(event.requestId) ?? url).pathname;
    if (path === '/' || path.startsWith('/fleet-page/')) pageBytes += event.encodedDataLength;
    if (path === '/api-sensor/sensors') listBytes += event.encodedDataLength;
  });
  let listBodyBytes = 0;
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api-sensor/sensors') void response.body().then((body) => (listBodyBytes += body.length));
  });
  await page.goto(`${url}/`);
  await page.fill('#username', username);
  await page.fill('#password', password);
  const started = performance.now();
  await page.click('#sign-in');
  // Functions, not text: the page's Content-Security-Policy forbids evaluating strings.
  await page.waitForFunction(
    (count) => {
      const doc = /** @type {any} */ (globalThis).document;
      return (
        doc.querySelector('#fleet-caption')?.textContent === `${count} sensors` && doc.querySelectorAll('#fleet-rows tr').length === 100
      );
    },
    sensors,
    { timeout: TIMEOUT_MS },
  );
  const signInMs = performance.now() - started;

  const searchStarted = performance.now();
  await page.fill('#search', '0999');
  await page.waitForFunction(FILTERED);
  const searchMs = performance.now() - searchStarted;
  await page.fill('#search', '');
  const filterStarted = performance.now();
  await page.selectOption('#state-filter', 'no_heartbeat');
  await page.waitForFunction(FILTERED);
  const filterMs = performance.now() - filterStarted;
  await context.close();
  return { signInMs, searchMs, filterMs, pageBytes, listBytes, listBodyBytes };
}

function fleetPageTable(measured, machine) {
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  return [
    `Fleet page in Chromium, ${measured.sensors} sensors, median of ${measured.rounds.length} sign-ins each in a fresh browser context:`,
    '',
    '| measure | value |',
    '|---|---|',
    `| click on "Sign in" → table drawn (password grant, sensor list, counts, first 100 rows) | ${measured.signInMs.toFixed(0)} ms |`,
    `| search in dev_id → table filtered | ${measured.searchMs.toFixed(0)} ms |`,
    `| state filter → table filtered | ${measured.filterMs.toFixed(0)} ms |`,
    `| the page's own files, first visit (HTML, script, style sheet, icon; brotli) | ${kib(measured.pageBytes)} |`,
    `| the sensor list on the wire (JSON, uncompressed) | ${kib(measured.listBytes)} |`,
    '',
    `(${machine})`,
  ].join('\n');
}
