import { describe, expect, it } from 'vitest';
import { calibrateStallDetector } from '../../src/calibrate/calibrate-stall-detector.js';
import { stallCalibrationSentences } from '../../src/calibrate/describe-stall-calibration.js';
import { renderStallCalibrationReport } from '../../src/calibrate/stall-calibration-report-html.js';
import { labelledStallRuns } from '../fixtures/stall-runs/labelled-stall-runs.js';
import { findChromium } from '../support/chromium.js';
import { openReportPage } from '../support/open-report-page.js';
import { skipWithout } from '../support/prerequisite.js';

const target = { maxFalseAlarm: 0.02, confidence: 0.95 };

function report(successes = 200, wasted = 60, source = 'runs.jsonl') {
  const calibration = calibrateStallDetector(labelledStallRuns(successes, wasted), target);
  return { calibration, html: renderStallCalibrationReport({ calibration, target, source }) };
}

describe('renderStallCalibrationReport', () => {
  it('is one self-contained page: no script, no external resource, a CSP that forbids the network', () => {
    const { html } = report(200, 60, '<runs & more>.jsonl');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<link|src="http|href="http|@import|url\(/i);
    expect(html).toContain('&lt;runs &amp; more&gt;.jsonl');
    expect(html).not.toContain('<runs & more>');
  });

  it('says nothing was chosen when there are too few successful runs', () => {
    const { html, calibration } = report(20, 10);
    expect(calibration.certified).toBe(false);
    expect(html).toContain('<p class="verdict no">Not certified: every pattern is off</p>');
    expect(html).toContain('at least 149 successful runs are needed');
    expect(html).toContain('<p>No pattern fired on these runs.</p>');
  });

  const browser = findChromium();
  it.skipIf(skipWithout(browser, import.meta.filename))('renders in headless Chromium: the sentences, the options, the figures and three charts with their bars', async () => {
    const { html, calibration } = report();
    await openReportPage(browser, html, 'stall-calibration-report.png', async (tab) => {

      // Runs in the page; written as a string because this project compiles without the DOM typings.
      const dom = (await tab.evaluate(`(() => {
        const text = (el) => (el ? el.textContent.trim() : null);
        const rows = (id) => [...document.querySelectorAll('#' + id + ' tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent));
        const chart = (id) => {
          const svg = document.getElementById(id);
          const box = svg.getBoundingClientRect();
          const bars = [...svg.querySelectorAll('g.bar')].map((g) => ({
            label: g.querySelector('text').textContent,
            width: g.querySelector('rect').getBBox().width,
            value: g.querySelector('text.value').textContent,
          }));
          const line = svg.querySelector('g.target line');
          return { width: box.width, height: box.height, bars, targetX: line ? Number(line.getAttribute('x1')) : null };
        };
        return {
          title: document.title,
          verdict: text(document.querySelector('.verdict')),
          summary: [...document.querySelectorAll('#summary p')].map((p) => p.textContent),
          options: rows('options'),
          offRows: document.querySelectorAll('#options tr.off').length,
          figures: rows('figures'),
          patterns: rows('patterns'),
          charts: { alarms: chart('false-alarm-chart'), caught: chart('caught-chart'), patterns: chart('pattern-chart') },
        };
      })()`)) as {
        title: string;
        verdict: string;
        summary: string[];
        options: string[][];
        offRows: number;
        figures: string[][];
        patterns: string[][];
        charts: Record<'alarms' | 'caught' | 'patterns', { width: number; height: number; bars: { label: string; width: number; value: string }[]; targetX: number | null }>;
      };

      expect(dom.title).toBe('stopwise stall calibration: runs.jsonl');
      expect(dom.verdict).toBe('Chosen: at most 1.49% of successful runs stopped early (95% confidence), target 2%');
      expect(dom.summary).toEqual(stallCalibrationSentences(calibration, target));
      expect(dom.options.map((row) => row[0])).toEqual(['repeatedResult', 'repeatedFailingCall', 'repeatedError', 'cycle', 'revisit', 'repeatedPair', 'noProgress', 'monologue', 'repeatedCall']);
      const off = Object.entries(calibration.options).filter(([, value]) => value === false).length;
      expect(dom.offRows).toBe(off);
      expect(dom.figures).toEqual([
        ['wasted runs stopped', '45 of 60', '75%'],
        ['wasted steps saved', '570 of 1155', '49.35%'],
        ['successful runs stopped early', '0 of 200', '0%'],
        ['upper bound (95%)', '', '1.49%'],
      ]);
      expect(dom.patterns).toEqual(
        calibration.figures.patterns.map((p) => [p.pattern, expect.any(String), String(p.wastedRuns), String(p.wastedStepsSaved), String(p.successRunsStopped)]),
      );
      for (const [name, chart] of Object.entries(dom.charts)) {
        expect(chart.width, name).toBeGreaterThan(300);
        expect(chart.height, name).toBeGreaterThan(80);
      }
      // the bound's bar ends left of the target line; the wasted bars are as long as their shares
      const bound = dom.charts.alarms.bars[1];
      expect(bound?.value).toBe('1.49%');
      expect(170 + (bound?.width ?? Infinity)).toBeLessThan(dom.charts.alarms.targetX ?? 0);
      const [stopped, saved] = dom.charts.caught.bars;
      expect((saved?.width ?? 0) / (stopped?.width ?? 1)).toBeCloseTo(0.4935 / 0.75, 2);
      expect(dom.charts.patterns.bars).toHaveLength(2 * calibration.figures.patterns.length);

    });
  }, 60_000);
});
