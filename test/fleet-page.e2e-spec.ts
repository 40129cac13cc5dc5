/// <reference lib="dom" />
import { jest } from '@jest/globals';
import axe from 'axe-core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Request as BrowserRequest } from 'playwright-core';
import request from 'supertest';
import { AlertEntity } from '../src/alerts/alert.entity.js';
import { FLEET_PAGE_CLIENT_ID, FleetPageClient } from '../src/fleet-page/fleet-page-client.js';
import { createUser, TOKEN_PATH, type TestUser } from './utils/auth-fixtures.js';
import { BROWSER_TIMEOUT_MS, openContext, type PageFaults, shows } from './utils/browser.js';
import { launchChromium } from './utils/chromium.js';
import { FakeClock } from './utils/fake-clock.js';
import { reportBody, type Report } from './utils/read-side.js';
import { submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

/** The moment the page is looked at: 2 March 2026, 14:00 in Auckland (the site's zone, NZDT). */
const NOW = Date.parse('2026-03-02T01:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const HOSTILE_DEV_ID = '<img src=x onerror=alert(1)>';
const SCREENSHOTS = fileURLToPath(new URL('../docs/', import.meta.url));
const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The fleet page (docs/fleet-page.md) in a real headless Chromium, against the service on the test
 * database, on data that the test submits through the API at fixed moments (the service's clock is
 * injected, the browser's fixed), so that the screenshots it writes to docs/ show the same every run.
 */
describe('The fleet page in Chromium', () => {
  // A browser on a busy two-core machine: each test waits for what it looks for, at most this long in all.
  jest.setTimeout(4 * BROWSER_TIMEOUT_MS);
  const clock = new FakeClock();
  let testApp: TestApp;
  let baseUrl: string;
  let browser: Browser;
  /** The launch, kept so that a browser started after its hook timed out is closed all the same. */
  let launching: Promise<Browser> | undefined;
  let user: TestUser;
  const contexts: BrowserContext[] = [];

  const at = (instant: number) => clock.advance(instant - clock.now());
  const deviceTime = (instant: number) => new Date(instant).toISOString().replace('.000Z', 'Z');

  /** A token for submissions, through the page's own client: a public one, so no secret. */
  const pageToken = async () => {
    const response = await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({ grant_type: 'password', client_id: FLEET_PAGE_CLIENT_ID, username: user.username, password: user.password })
      .expect(200);
    return (response.body as { access_token: string }).access_token;
  };

  /** Reports stored at `instant` by the service's clock, each at its own device time. */
  const storeAt = async (instant: number, reports: Array<Report & { at: number }>) => {
    at(instant);
    const token = await pageToken();
    const bodies = reports.map(({ at: time, ...report }) => reportBody({ ...report, time: deviceTime(time) }));
    await submitBatch(testApp.app, bodies, { token, contentType: 'application/json' }).expect(201);
  };

  /** Daily heartbeats over the last 29 days before `until`, the battery going from `from` to `to` volts. */
  const history = (devId: string, end: number, from: number, to: number, timeout: number): Array<Report & { at: number }> =>
    Array.from({ length: 29 }, (_unused, index) => ({
      dev_id: devId,
      at: end - (29 - index) * DAY,
      event: 'Heartbeat',
      timeout,
      voltage: Math.round((from + ((to - from) * index) / 28) * 100) / 100,
      rssi: -90 - (index % 7),
      snr: 7.5 - (index % 5),
    }));

  /**
   * A new browser context on the page. Its Date.now() stands at NOW (or `now`) while its timers run as usual;
   * or, with `movableClock`, its clock starts at NOW and the test moves it (timers included).
   */
  const open = async (options: { viewport?: { width: number; height: number }; movableClock?: boolean; now?: number } = {}) => {
    const opened = await openContext(browser, { viewport: options.viewport ?? { width: 1000, height: 760 } });
    contexts.push(opened.context);
    if (options.movableClock) await opened.page.clock.install({ time: NOW });
    else await opened.page.clock.setFixedTime(options.now ?? NOW);
    await opened.page.goto(`${baseUrl}/`);
    return opened;
  };

  const signIn = async (page: Page, password = user.password, username = user.username) => {
    await page.getByLabel('User name').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  const rows = (page: Page) => page.locator('#fleet-rows tr');
  const row = (page: Page, devId: string) =>
    page.locator('#fleet-rows tr').filter({ has: page.getByRole('link', { name: devId, exact: true }) });
  const cells = async (page: Page, devId: string) => (await row(page, devId).locator('th, td').allInnerTexts()).map((text) => text.trim());

  const noFaults = (faults: PageFaults) => expect(faults).toEqual({ errors: [], violations: [], dialogs: [] });

  const axeViolations = async (page: Page) => {
    await page.evaluate(axe.source);
    const results = await page.evaluate(
      (tags) => (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags } }),
      WCAG_A_AA,
    );
    return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  };

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
    await testApp.reset();
    // The page's client, made at start-up, is made again after emptying a shared test database.
    await testApp.app.get(FleetPageClient).onApplicationBootstrap();
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${((testApp.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    user = await createUser(testApp.app, { username: 'coordinator', password: 'trap line 2026' });

    // Three traps: one heard 12 min ago, one sprung 13 h ago, one silent for 3 h with a 1 h heartbeat.
    const sprungAt = NOW - 13 * HOUR;
    await storeAt(sprungAt, [
      ...history('trap-01', sprungAt, 3.62, 3.56, 86_400),
      { dev_id: 'trap-01', at: NOW - 5 * DAY - 3 * HOUR, event: 'Vibration', timeout: 86_400, voltage: 3.57 },
      ...history('trap-02', sprungAt, 3.41, 3.27, 86_400),
      { dev_id: 'trap-02', at: sprungAt, event: 'Sprung', status: 'Sprung', timeout: 86_400, voltage: 3.26, rssi: -101, snr: 3.25 },
      ...history('trap-03', sprungAt, 3.5, 3.48, 3_600),
    ]);
    await storeAt(NOW - 3 * HOUR, [
      { dev_id: 'trap-03', at: NOW - 3 * HOUR, event: 'Heartbeat', timeout: 3_600, voltage: 3.48, rssi: -88, snr: 9 },
    ]);
    await storeAt(NOW - 12 * MINUTE, [
      { dev_id: 'trap-01', at: NOW - 12 * MINUTE, event: 'Heartbeat', timeout: 86_400, voltage: 3.56, rssi: -84, snr: 9.5 },
    ]);
    at(NOW);
    launching = launchChromium(BROWSER_TIMEOUT_MS * 2);
    browser = await launching;
  }, 4 * BROWSER_TIMEOUT_MS);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await (await launching?.catch(() => undefined))?.close();
    await testApp?.close();
  });

  it('signs in as its public client and shows the three sensors with their state in words, battery and last heard', async () => {
    const { page, faults } = await open();
    await signIn(page);

    await shows.count(rows(page), 3);
    expect(await cells(page, 'trap-01')).toEqual(['trap-01', 'OK', 'No', '3.56 V\n12 min ago', '2 Mar 13:48\n12 min ago']);
    expect(await cells(page, 'trap-03')).toEqual(['trap-03', 'Overdue', 'No', '3.48 V\n3 h ago', '2 Mar 11:00\n3 h ago']);
    expect(await cells(page, 'trap-02')).toEqual([
      'trap-02',
      'OK',
      'Sprung 13 h ago\n11 h left',
      '3.26 V LOW\n13 h ago',
      '2 Mar 01:00\n13 h ago',
    ]);
    await shows.text(page.locator('#counts'), /OK\s*2\s*Overdue\s*1\s*No heartbeat\s*0\s*Expired\s*0\s*Sprung\s*1/);
    await shows.text(page.locator('#refreshed'), 'Last refreshed 2 Mar 14:00 NZDT; refreshes every 30 s.');
    await shows.visible(page.getByRole('button', { name: 'Sign out' }));
    await page.screenshot({ path: `${SCREENSHOTS}fleet-page-fleet.png`, fullPage: true });
    noFaults(await faults());
  });

  it('filters by state, by sprung and by dev_id, and sorts by a column', async () => {
    const { page, faults } = await open();
    await signIn(page);
    await shows.count(rows(page), 3);

    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Overdue' });
    await shows.count(rows(page), 1);
    await shows.text(row(page, 'trap-03'), new RegExp('Overdue'));
    await shows.text(page.locator('#fleet-caption'), '1 of 3 sensors match the filters');

    await page.getByLabel('State', { exact: true }).selectOption({ label: 'All states' });
    await page.getByLabel('Sprung', { exact: true }).selectOption({ label: 'Sprung' });
    await shows.count(rows(page), 1);
    await shows.visible(row(page, 'trap-02'));

    await page.getByLabel('Sprung', { exact: true }).selectOption({ label: 'Sprung or not' });
    await page.getByLabel('Search dev_id').fill('P-0');
    await shows.count(rows(page), 3);
    await page.getByLabel('Search dev_id').fill('01');
    await shows.count(rows(page), 1);
    await page.getByLabel('Search dev_id').fill('');

    await page.getByRole('button', { name: 'Battery' }).click();
    await shows.texts(rows(page).locator('th'), ['trap-02', 'trap-03', 'trap-01']);
    await page.getByRole('button', { name: 'Battery' }).click();
    await shows.texts(rows(page).locator('th'), ['trap-01', 'trap-03', 'trap-02']);
    await shows.attribute(page.locator('th[data-sort="battery"]'), 'aria-sort', 'descending');
    noFaults(await faults());
  });

  it('opens a sensor: its latest records and a chart of 30 days, drawn', async () => {
    const { page, faults } = await open();
    await signIn(page);
    await page.getByRole('link', { name: 'trap-02', exact: true }).click();

    await shows.text(page.getByRole('heading', { level: 1 }), 'Sensor trap-02');
    await shows.count(page.locator('#record-rows tr'), 30);
    expect(await page.locator('#record-rows tr').first().locator('td').allInnerTexts()).toEqual([
      'Sprung',
      'Sprung',
      '2 Mar 01:00',
      '3.26 V LOW',
      '—',
      '-101 dBm / 3.25 dB',
    ]);
    const canvas = page.locator('#chart canvas');
    await shows.visible(canvas);
    // The chart is drawn: a good share of its canvas holds pixels (axes, grid, the battery line, markers).
    const drawn = await canvas.evaluate((element: HTMLCanvasElement) => {
      const { data } = element.getContext('2d')!.getImageData(0, 0, element.width, element.height);
      let painted = 0;
      for (let alpha = 3; alpha < data.length; alpha += 4) if (data[alpha]! > 0) painted += 1;
      return painted;
    });
    expect(drawn).toBeGreaterThan(2000);
    // What one screen shows: the sensor's summary, its chart and its latest records.
    await page.screenshot({ path: `${SCREENSHOTS}fleet-page-sensor.png` });

    await page.getByRole('link', { name: 'All sensors' }).click();
    await shows.count(rows(page), 3);
    noFaults(await faults());
  });

  it('has no WCAG A or AA violations that axe-core finds, signed out, on the fleet and on a sensor', async () => {
    const { page, faults } = await open();
    expect(await axeViolations(page)).toEqual([]);
    await signIn(page);
    await shows.count(rows(page), 3);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'trap-01', exact: true }).click();
    await shows.visible(page.locator('#chart canvas'));
    expect(await axeViolations(page)).toEqual([]);
    noFaults(await faults());
  });

  it('is usable at 375 px wide by keyboard alone, without scrolling sideways', async () => {
    const { page, faults } = await open({ viewport: { width: 375, height: 740 } });
    await shows.focus(page.getByLabel('User name'));
    await page.keyboard.type(user.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await shows.count(rows(page), 3);
    await shows.focus(page.getByRole('heading', { name: 'Sensors' }));
    await shows.text(row(page, 'trap-02').locator('.sprung-clock'), 'Sprung 13 h ago\n11 h left');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${SCREENSHOTS}fleet-page-phone.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // Tab on until the first sensor's link (sign out, counts, filters, refresh and sort buttons come first).
    for (let presses = 0; presses < 40; presses += 1) {
      if (await page.evaluate(() => document.activeElement?.closest('#fleet-rows') !== null)) break;
      await page.keyboard.press('Tab');
    }
    await shows.focus(page.getByRole('link', { name: 'trap-01', exact: true }));
    await page.keyboard.press('Enter');
    await shows.focus(page.getByRole('heading', { name: 'Sensor trap-01' }));
    await shows.visible(page.locator('#chart canvas'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goBack();
    await shows.count(rows(page), 3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    noFaults(await faults());
  });

  it('refreshes its token and the fleet by itself, and keeps its tokens out of storage and addresses', async () => {
    const { page, faults } = await open({ movableClock: true });
    const tokens: string[] = [];
    const requests: BrowserRequest[] = [];
    page.on('request', (sent) => requests.push(sent));
    page.on('response', (answer) => {
      if (answer.url().endsWith(TOKEN_PATH) && answer.ok()) {
        void answer
          .json()
          .then((body: { access_token: string; refresh_token: string }) => tokens.push(body.access_token, body.refresh_token));
      }
    });
    await signIn(page);
    await shows.count(rows(page), 3);

    const grants = () =>
      requests.filter((sent) => sent.url().endsWith(TOKEN_PATH)).map((sent) => new URLSearchParams(sent.postData() ?? ''));
    const sensorLists = () => requests.filter((sent) => new URL(sent.url()).pathname === '/api-sensor/sensors');
    // The access token lives 300 s and the page swaps its refresh token 30 s before that; the list reloads every 30 s.
    await page.clock.fastForward('04:31');
    await until(
      () => grants().some((form) => form.get('grant_type') === 'refresh_token') && sensorLists().length >= 2 && tokens.length >= 4,
    );
    const refresh = grants().find((form) => form.get('grant_type') === 'refresh_token')!;
    expect(Object.fromEntries(refresh)).toEqual({ grant_type: 'refresh_token', refresh_token: tokens[1], client_id: FLEET_PAGE_CLIENT_ID });
    await shows.count(rows(page), 3);

    const stored = await page.evaluate(() => ({
      local: localStorage.length,
      session: sessionStorage.length,
      cookie: document.cookie,
      url: location.href,
    }));
    expect(stored).toEqual({ local: 0, session: 0, cookie: '', url: `${baseUrl}/` });
    for (const sent of requests) for (const token of tokens) expect(sent.url()).not.toContain(token);
    noFaults(await faults());
  });

  it('keeps the session through a renewal that meets no answer, then a busy service twice, asking again each time', async () => {
    const { page, faults } = await open({ movableClock: true });
    await signIn(page);
    await shows.count(rows(page), 3);
    const renewals: string[] = [];
    const busy = 'The service is busy. Try again shortly.';
    await page.route(`**${TOKEN_PATH}`, async (route) => {
      renewals.push(['aborted', 'busy', 'busy'][renewals.length] ?? 'through');
      const outcome = renewals.at(-1);
      if (outcome === 'aborted') return route.abort('connectionreset');
      if (outcome === 'through') return route.continue();
      return route.fulfill({
        status: 503,
        headers: { 'Retry-After': '2' },
        contentType: 'application/json',
        body: JSON.stringify({ error: 'temporarily_unavailable', error_description: busy, message: busy }),
      });
    });

    // The access token lives 300 s; the page renews it 30 s before that, then after 5 s (no answer), 2 s and 2 s.
    await page.clock.fastForward('04:31');
    for (const [count, wait] of [
      [1, '00:06'],
      [2, '00:03'],
      [3, '00:03'],
    ] as const) {
      await until(() => renewals.length === count);
      await page.clock.fastForward(wait);
    }
    await until(() => renewals.length === 4);
    await page.clock.fastForward('00:30');

    expect(renewals).toEqual(['aborted', 'busy', 'busy', 'through']);
    await shows.count(rows(page), 3);
    expect(await page.locator('#fleet-view').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(false);
    noFaults(await faults());
  });

  it('says how long a name is held back after five wrong passwords, and that an administrator can lift it', async () => {
    const held = await createUser(testApp.app, { username: 'held-back', password: 'the right one 2026' });
    const { page, faults } = await open();
    // Each attempt answered before the next: one still being checked would hold the next back instead.
    const attempt = async (password: string) => {
      const answered = page.waitForResponse((answer) => answer.url().endsWith(TOKEN_PATH));
      await signIn(page, password, held.username);
      return (await answered).status();
    };
    for (let wrong = 1; wrong <= 5; wrong++) expect(await attempt(`wrong ${wrong}`)).toBe(400);

    expect(await attempt(held.password)).toBe(429);
    // The service's clock stands still here: the whole 6 hours are left.
    await shows.text(
      page.getByRole('alert'),
      'Too many failed sign-ins for this name. Try again in 6 h. An administrator can unblock it sooner.',
    );
    noFaults(await faults());
  });

  it('says a wrong password in the page, and signs out to the sign-in form, forgetting the fleet', async () => {
    const { page, faults } = await open();
    await signIn(page, 'not the password');
    await shows.text(page.getByRole('alert'), 'The user name or password is wrong.');
    await shows.hidden(page.locator('#fleet-view'));

    await signIn(page);
    await shows.count(rows(page), 3);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await shows.visible(page.getByRole('button', { name: 'Sign in' }));
    await shows.focus(page.getByLabel('User name'));
    await shows.count(rows(page), 0);
    await shows.hidden(page.locator('#fleet-view'));
    noFaults(await faults());
  });

  it.each([
    { after: '1 h', now: NOW - 12 * HOUR, level: 'due', words: 'Sprung 1 h ago\n23 h left' },
    { after: '13 h', now: NOW, level: 'soon', words: 'Sprung 13 h ago\n11 h left' },
    { after: '21 h', now: NOW + 8 * HOUR, level: 'urgent', words: 'Sprung 21 h ago\n3 h left' },
    { after: '25 h', now: NOW + 12 * HOUR, level: 'passed', words: 'Sprung 25 h ago\ndeadline passed' },
  ])('shows a trap sprung $after ago with its 24-hour clock in words: $words', async ({ now, level, words }) => {
    const { page, faults } = await open({ now });
    await signIn(page);
    await shows.count(rows(page), 3);

    const clock = row(page, 'trap-02').locator('td[data-label="Sprung"] .sprung-clock');
    await shows.text(clock, words);
    await shows.attribute(clock, 'class', `sprung-clock clock-${level}`);
    // Amber after 12 h, red after 20 h, dark red once the deadline has passed: each repeats its words.
    const background = await clock.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background === 'rgba(0, 0, 0, 0)').toBe(level === 'due');
    // Each colour keeps its words legible (axe-core's contrast rule among the rest).
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'trap-02', exact: true }).click();
    await shows.text(page.locator('#sensor-summary .sprung-clock'), words);
    noFaults(await faults());
  });

  it("marks a battery low under its owner's battery_low alert threshold, where one is set, instead of 3.3 V", async () => {
    const alerts = testApp.dataSource.getRepository(AlertEntity);
    const alert = await alerts.save(
      alerts.create({
        uid: user.uid,
        events: ['battery_low'],
        devId: 'trap-03',
        channel: 'webhook',
        target: 'https://alerts.example.org/traps',
        format: 'json',
        secret: null,
        batteryBelow: '3.5',
        baitBelow: null,
        remindAfter: 12 * 3600,
        escalateAfter: null,
        escalateChannel: null,
        escalateTarget: null,
        created: new Date(NOW),
      }),
    );
    try {
      const { page, faults } = await open();
      await signIn(page);
      await shows.count(rows(page), 3);

      // trap-03's 3.48 V is under its alert's 3.5 V; trap-01's 3.56 V is not, trap-02's 3.26 V is under 3.3 V.
      await shows.text(row(page, 'trap-03').locator('td[data-label="Battery"]'), '3.48 V LOW\n3 h ago');
      await shows.text(row(page, 'trap-01').locator('td[data-label="Battery"]'), '3.56 V\n12 min ago');
      await shows.text(row(page, 'trap-02').locator('td[data-label="Battery"]'), '3.26 V LOW\n13 h ago');
      await page.getByRole('link', { name: 'trap-03', exact: true }).click();
      await shows.text(page.locator('#record-rows tr').first().locator('td[data-label="Battery"]'), '3.48 V LOW');
      expect(await axeViolations(page)).toEqual([]);
      noFaults(await faults());
    } finally {
      await alerts.delete(alert.id);
    }
  });

  it('shows a hostile dev_id as text, in the table and on its own page', async () => {
    at(NOW);
    const token = await pageToken();
    await submit(testApp.app, reportBody({ dev_id: HOSTILE_DEV_ID, event: 'Heartbeat', time: deviceTime(NOW), voltage: 3.6 }), {
      token,
    }).expect(201);
    const { page, faults } = await open();
    await signIn(page);

    await shows.count(rows(page), 4);
    const link = page.getByRole('link', { name: HOSTILE_DEV_ID, exact: true });
    await shows.text(link, HOSTILE_DEV_ID);
    expect(await page.locator('main img').count()).toBe(0);
    await link.click();
    await shows.text(page.getByRole('heading', { level: 1 }), `Sensor ${HOSTILE_DEV_ID}`);
    await shows.count(page.locator('#record-rows tr'), 1);
    expect(await page.locator('main img').count()).toBe(0);
    noFaults(await faults());
  });
});
