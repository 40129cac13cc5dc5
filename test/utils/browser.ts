/// <reference lib="dom" />
import { expect } from '@jest/globals';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';

/** Generous on a busy two-core machine, but bounded: a browser that never starts fails the suite. */
export const BROWSER_TIMEOUT_MS = 60_000;

/**
 * What a page did that it must not: an uncaught error, a Content-Security-Policy violation, a
 * dialog (`alert` from injected markup). Recorded from before the page's own script runs.
 */
export interface PageFaults {
  errors: string[];
  violations: string[];
  dialogs: string[];
}

export async function openContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; faults: () => Promise<PageFaults> }> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, deviceScaleFactor: 1, locale: 'en-NZ', ...options });
  context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const faults = async (): Promise<PageFaults> => ({
    errors,
    dialogs,
    violations: await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  });
  return { context, page, faults };
}

/**
 * Reads until the check passes, as a person waits for a page to show something: at most
 * BROWSER_TIMEOUT_MS, then the check's own failure (saying what was there) fails the test.
 */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => void): Promise<void> {
  const deadline = Date.now() + BROWSER_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    try {
      check(value);
      return;
    } catch (failure) {
      if (Date.now() > deadline) throw failure;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a locator shows, waited for (playwright-core has no expect of its own). */
export const shows = {
  count: (locator: Locator, count: number) =>
    eventually(
      () => locator.count(),
      (value) => expect(value).toBe(count),
    ),
  text: (locator: Locator, text: string | RegExp) =>
    eventually(
      async () => (await locator.innerText()).trim(),
      (value) => (typeof text === 'string' ? expect(value).toBe(text) : expect(value).toMatch(text)),
    ),
  texts: (locator: Locator, texts: string[]) =>
    eventually(
      async () => (await locator.allInnerTexts()).map((value) => value.trim()),
      (value) => expect(value).toEqual(texts),
    ),
  focus: (locator: Locator) =>
    eventually(
      () => locator.evaluate((element) => element === document.activeElement),
      (value) => expect(value).toBe(true),
    ),
  attribute: (locator: Locator, name: string, expected: string) =>
    eventually(
      () => locator.getAttribute(name),
      (value) => expect(value).toBe(expected),
    ),
  visible: (locator: Locator) => locator.waitFor({ state: 'visible' }),
  hidden: (locator: Locator) => locator.waitFor({ state: 'hidden' }),
};
