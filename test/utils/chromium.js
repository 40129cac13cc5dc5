// @ts-check
// Debian's Chromium as the browser tests and `npm run bench` drive it (plain JavaScript, so that the
// bench imports it as it is): no browser is downloaded, the machines reach only npm and Debian.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, and quiet on the network: without the background-networking flags Chromium keeps
 * trying to reach Google's hosts, which a closed network refuses. Playwright gives each launch a
 * fresh, empty profile directory (--user-data-dir) of its own.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails with the remedy when Chromium is missing, rather than skipping what needs it. */
export function requireChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run does).`);
}

/**
 * @param {number} timeoutMs how long the browser may take to start
 * @returns {Promise<import('playwright-core').Browser>}
 */
export function launchChromium(timeoutMs) {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: timeoutMs });
}
