// The HTML reports' browser check: a page opened from a file in headless Chromium (found by findChromium), read by the
// test, then a full-page screenshot; the page must log no error or warning and load nothing but itself.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { findChromium } from './chromium.js';
import { required } from './prerequisite.js';

const SCREENSHOTS = join(import.meta.dirname, '..', '.out');

/**
 * Opens `html` in headless Chromium (what `findChromium` found: where none was, this fails with the reason; the test
 * files skip outside CI before getting here), hands the tab to `read`, screenshots the page as `screenshot`, and
 * returns what `read` did.
 */
export async function openReportPage<T>(browser: ReturnType<typeof findChromium>, html: string, screenshot: string, read: (tab: Page) => Promise<T>): Promise<T> {
  const executablePath = required(browser);
  const folder = mkdtempSync(join(tmpdir(), 'stopwise-report-page-'));
  const page = join(folder, 'report.html');
  writeFileSync(page, html);
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(join(folder, 'profile'), {
      executablePath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      viewport: { width: 1100, height: 1400 },
    });
    const tab = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
    const result = await read(tab);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, screenshot);
    await tab.screenshot({ path, fullPage: true });
    expect(statSync(path).size).toBeGreaterThan(20_000);
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
    return result;
  } finally {
    await context?.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
