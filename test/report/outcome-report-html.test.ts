import { describe, expect, it } from 'vitest';
import { buildOutcomeReport } from '../../src/report/outcome-report.js';
import { renderOutcomeReport } from '../../src/report/outcome-report-html.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';
import { outcomesFileText, simulateOutcomeRecords } from '../../bench/simulated-outcomes.js';
import { findChromium } from '../support/chromium.js';
import { openReportPage } from '../support/open-report-page.js';
import { skipWithout } from '../support/prerequisite.js';


function samplePage(source = 'outcomes.jsonl') {
  const records = simulateOutcomeRecords({ seed: 7, runs: 3000, days: 30, rise: { taskType: 'bugfix', fromDay: 20, toDay: 22, limitShare: 0.35 } });
  const read = parseOutcomeRecords(`${outcomesFileText(records)}{"broken\n`, source, { skipInvalid: true });
  if (!read.ok) throw new Error('the simulated records do not parse');
  const report = buildOutcomeReport(read.runs, { bucket: 'day' });
  return { report, html: renderOutcomeReport({ report, source, skipped: read.skipped }) };
}

describe('renderOutcomeReport', () => {
  it('is one self-contained page: no script, no external resource, a CSP that forbids the network, text escaped', () => {
    const { html } = samplePage('<outcomes & more>.jsonl');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<link|src="http|href="http|@import|url\(/i);
    expect(html).toContain('&lt;outcomes &amp; more&gt;.jsonl');
    expect(html).not.toContain('<outcomes & more>');
  });

  it('says there is nothing to review or alert when there is not', () => {
    const read = parseOutcomeRecords(
      JSON.stringify({ outcome: { exit: 'success', note: '', steps: 3, usage: { wallClockMs: 10, cost: 0 }, trace: [] }, at: '2026-03-02T10:00:00Z' }),
    );
    if (!read.ok) throw new Error('does not parse');
    const html = renderOutcomeReport({ report: buildOutcomeReport(read.runs), source: 'one.jsonl' });
    expect(html).toContain('id="review-queue-empty"');
    expect(html).toContain('id="human-wait-empty"');
    // One run is too few to test any hour against a baseline: the page says so instead of claiming no alert.
    expect(html).toContain('No limit-share check: no hour had the 20 runs in the 7 hours before it that a baseline needs, so none was tested.');
    expect(html).not.toContain('No alert');
    expect(html).not.toContain('class="alert-marker"');
  });

  const browser = findChromium();
  it.skipIf(skipWithout(browser, import.meta.filename))('renders in headless Chromium: every section, the counts of the report, and a marker on each alert', async () => {
    const { html, report } = samplePage();
    await openReportPage(browser, html, 'outcome-report.png', async (tab) => {

      // Runs in the page; written as a string because this project compiles without the DOM typings.
      const dom = (await tab.evaluate(`(() => {
        const text = (selector) => [...document.querySelectorAll(selector)].map((node) => node.textContent);
        const box = (node) => { const rect = node.getBoundingClientRect(); return { width: rect.width, height: rect.height }; };
        return {
          sections: [...document.querySelectorAll('section')].map((section) => section.id),
          headings: text('h2'),
          exitRows: [...document.querySelectorAll('#exit-table tr[data-task-type]')].map((row) => ({
            type: row.dataset.taskType,
            cells: [...row.querySelectorAll('td[data-exit]')].map((cell) => [cell.dataset.exit, Number.parseInt(cell.textContent, 10)]),
          })),
          bars: [...document.querySelectorAll('#exit-chart .exit-row')].map((row) => ({
            type: row.dataset.taskType,
            width: [...row.querySelectorAll('rect.exit-bar')].reduce((sum, rect) => sum + rect.getBBox().width, 0),
          })),
          charts: [...document.querySelectorAll('svg.limit-share-chart')].map((svg) => ({
            type: svg.dataset.taskType,
            ...box(svg),
            line: svg.querySelector('path.share-line')?.getTotalLength() ?? 0,
            bands: svg.querySelectorAll('rect.band').length,
            markers: [...svg.querySelectorAll('g.alert-marker')].map((marker) => ({ start: marker.dataset.start, ...box(marker) })),
          })),
          alertItems: document.querySelectorAll('#alerts li.alert-item').length,
          reviewRows: document.querySelectorAll('#review-queue tr.review-item').length,
          reviewCount: document.getElementById('review-count')?.textContent,
          reviewMore: document.getElementById('review-more')?.textContent,
          firstReviewNote: document.querySelector('#review-queue tr.review-item td.text')?.textContent,
          humanRows: [...document.querySelectorAll('#human-wait tr[data-task-type]')].map((row) => [...row.children].map((cell) => cell.textContent)),
          rates: [...document.querySelectorAll('#rates tr[data-task-type]')].map((row) => [row.dataset.taskType, row.querySelector('.true-success').textContent, row.querySelector('.correct-give-up').textContent]),
          limits: [...document.querySelectorAll('#suggested-limits tr[data-task-type]')].map((row) => [...row.children].map((cell) => cell.textContent)),
          skipped: document.getElementById('skipped')?.textContent,
        };
      })()`)) as {
        sections: string[];
        headings: string[];
        exitRows: { type: string; cells: [string, number][] }[];
        bars: { type: string; width: number }[];
        charts: { type: string; width: number; height: number; line: number; bands: number; markers: { start: string; width: number; height: number }[] }[];
        alertItems: number;
        reviewRows: number;
        reviewCount: string;
        reviewMore: string;
        firstReviewNote: string;
        humanRows: string[][];
        rates: string[][];
        limits: string[][];
        skipped: string;
      };

      expect(dom.sections).toEqual(['exits', 'limit-share', 'review', 'human', 'checks', 'limits']);
      expect(dom.headings).toEqual([
        'How runs ended',
        'Share of limit stops over time',
        'Review queue: give-ups and hand-offs',
        'Time people took to answer',
        'True success and correct give-ups',
        'Suggested limits',
      ]);
      const types = Object.keys(report.byTaskType);
      expect(dom.exitRows.map((row) => row.type)).toEqual(types);
      for (const row of dom.exitRows) {
        expect(Object.fromEntries(row.cells), row.type).toEqual(report.byTaskType[row.type]?.counts);
      }
      // every bar spans the full width: the shares add up to 1
      for (const bar of dom.bars) expect(bar.width, bar.type).toBeCloseTo(dom.bars[0]?.width ?? 0, 0);

      expect(dom.charts.map((chart) => chart.type)).toEqual(types);
      for (const chart of dom.charts) {
        expect(chart.width, chart.type).toBeGreaterThan(900);
        expect(chart.height, chart.type).toBeGreaterThan(200);
        expect(chart.line, `${chart.type} draws its share line`).toBeGreaterThan(500);
        expect(chart.bands, `${chart.type} shades a band for each tested day`).toBe(report.limitShare.series[chart.type]?.filter((bucket) => bucket.baseline !== null).length);
      }
      const markers = dom.charts.flatMap((chart) => chart.markers.map((marker) => ({ ...marker, type: chart.type })));
      expect(markers.length).toBeGreaterThan(0);
      expect(markers.map((marker) => [marker.type, marker.start])).toEqual(report.alerts.map((alert) => [alert.taskType, alert.start]));
      expect(markers[0]).toMatchObject({ type: 'bugfix', start: '2026-03-22T00:00:00.000Z' });
      for (const marker of markers) expect(marker.width).toBeGreaterThan(5);
      expect(dom.alertItems).toBe(report.alerts.length);

      expect(dom.reviewRows).toBe(200);
      const gaveUp = report.reviewQueue.filter((item) => item.exit === 'gave_up').length;
      expect(dom.reviewCount).toBe(`${report.reviewQueue.length} to review: ${gaveUp} give-ups and ${report.reviewQueue.length - gaveUp} hand-offs, newest first.`);
      expect(dom.reviewMore).toContain(`${report.reviewQueue.length - 200} older items not shown`);
      expect(dom.firstReviewNote).toBe(report.reviewQueue[0]?.note);

      expect(dom.humanRows.map((row) => row[0])).toEqual(Object.keys(report.humanWaits));
      for (const row of dom.humanRows) {
        const waits = report.humanWaits[row[0] as string];
        expect(row.slice(1, 5).map(Number), row[0]).toEqual([waits?.questions, waits?.answered, waits?.timedOut, waits?.nobodyAsked]);
        expect(row[5]).toMatch(/^\d+(\.\d)? min$/);
      }
      for (const [type, trueSuccess, correctGiveUp] of dom.rates) {
        const summary = report.byTaskType[type as string];
        expect(trueSuccess).toBe(`${Number(((summary?.trueSuccessRate ?? 0) * 100).toFixed(1))}%`);
        expect(correctGiveUp).toBe(`${Number(((summary?.correctGiveUpRate ?? 0) * 100).toFixed(1))}%`);
      }
      expect(dom.limits.map((row) => [row[0], row[2]])).toEqual(
        types.map((type) => [type, `${report.suggestedLimits[type]?.limits.maxSteps} (${report.suggestedLimits[type]?.basedOn.maxSteps} runs)`]),
      );
      expect(dom.skipped).toBe('1 unreadable line skipped');

    });
  }, 60_000);
});
