import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrateThresholds } from '../../src/calibrate/calibrate-thresholds.js';
import { brierScore, expectedCalibrationError, reliabilityBins } from '../../src/calibrate/calibration-metrics.js';
import { renderCalibrationReport } from '../../src/calibrate/calibration-report-html.js';
import { escapeHtml } from '../../src/html/report-page.js';
import { parseLabelledCases, type ScoredCase } from '../../src/calibrate/labelled-case.js';
import { findChromium } from '../support/chromium.js';
import { openReportPage } from '../support/open-report-page.js';
import { skipWithout } from '../support/prerequisite.js';

const root = join(import.meta.dirname, '..', '..');

function exampleReport(source = 'examples/cases/labelled-cases.jsonl'): { html: string; doneThreshold: number } {
  const read = parseLabelledCases(readFileSync(join(root, 'examples/cases/labelled-cases.jsonl'), 'utf8'));
  if (!read.ok) throw new Error('example cases do not parse');
  const cases = read.cases as ScoredCase[];
  const result = calibrateThresholds(cases, { seed: 0 });
  const html = renderCalibrationReport({
    result,
    bins: reliabilityBins(cases),
    brier: brierScore(cases),
    ece: expectedCalibrationError(cases),
    source,
  });
  return { html, doneThreshold: result.thresholds?.doneThreshold ?? Number.NaN };
}

describe('renderCalibrationReport', () => {
  it('is one self-contained page: no script, no external resource, a CSP that forbids the network', () => {
    const { html, doneThreshold } = exampleReport('<cases & more>.jsonl');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<link|src="http|href="http|@import|url\(/i);
    expect(html).toContain('&lt;cases &amp; more&gt;.jsonl');
    for (const id of ['reliability-diagram', 'false-done-chart', 'coverage-chart', 'figures', 'task-types', 'walk']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain(`done ≥ ${doneThreshold}`);
    expect(escapeHtml(`"it's" <b>`)).toBe('&quot;it&#39;s&quot; &lt;b&gt;');
  });

  it('labels the chart axes with round ticks: steps of 1, 2 or 5 times a power of ten', () => {
    const { html } = exampleReport();
    for (const id of ['reliability-diagram', 'false-done-chart', 'coverage-chart']) {
      const svg = html.slice(html.indexOf(`<svg id="${id}"`), html.indexOf('</svg>', html.indexOf(`<svg id="${id}"`)));
      const axes = svg.slice(svg.indexOf('<g class="axes">'), svg.indexOf('</g>', svg.indexOf('<g class="axes">')));
      const yLabels = [...axes.matchAll(/text-anchor="end">([^<]*)<\/text>/g)].map((match) => Number(match[1]));
      expect(yLabels.length, id).toBeGreaterThanOrEqual(3);
      const step = (yLabels[1] as number) - (yLabels[0] as number);
      const mantissa = Number((step / 10 ** Math.floor(Math.log10(step))).toFixed(6));
      expect([1, 2, 5], `${id}: ${yLabels.join(' ')}`).toContain(mantissa);
      yLabels.forEach((label, i) => expect(label, `${id}: ${yLabels.join(' ')}`).toBeCloseTo(i * step, 10));
    }
  });

  it('marks a certified task type whose held-out upper bound is above the target, never a plain "yes"', () => {
    const { html } = exampleReport();
    const table = html.slice(html.indexOf('<table id="task-types">'), html.indexOf('</table>', html.indexOf('<table id="task-types">')));
    expect(table).toContain('<tr><td>refactor</td><td>220</td><td>not confirmed</td>');
    expect(table).toContain('<tr><td>feature</td><td>220</td><td>no</td>');
  });

  it('does not speak of a certified threshold when nothing was certified', () => {
    const read = parseLabelledCases(readFileSync(join(root, 'examples/cases/labelled-cases.jsonl'), 'utf8'));
    if (!read.ok) throw new Error('example cases do not parse');
    const cases = read.cases as ScoredCase[];
    const result = calibrateThresholds(cases, { seed: 0, alpha: 0.001 });
    expect(result.certified).toBe(false);
    const html = renderCalibrationReport({ result, bins: reliabilityBins(cases), brier: brierScore(cases), ece: expectedCalibrationError(cases), source: 'cases.jsonl' });
    expect(html).not.toMatch(/the certified threshold/i);
    expect(html).toContain('so none is certified');
  });

  const browser = findChromium();
  it.skipIf(skipWithout(browser, import.meta.filename))('renders its charts in headless Chromium with no console error, and a screenshot is taken', async () => {
    const { html, doneThreshold } = exampleReport();
    await openReportPage(browser, html, 'calibration-report.png', async (tab) => {

      // Runs in the page; written as a string because this project compiles without the DOM typings.
      const charts = (await tab.evaluate(`
        ['reliability-diagram', 'false-done-chart', 'coverage-chart'].map((id) => {
          const svg = document.getElementById(id);
          const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
          const lengths = svg ? [...svg.querySelectorAll('path')].map((path) => path.getTotalLength()) : [];
          return {
            id,
            width: box.width,
            height: box.height,
            dots: svg ? svg.querySelectorAll('circle.bin').length : 0,
            longestPath: Math.max(0, ...lengths),
            markers: svg ? [...svg.querySelectorAll('.chosen-threshold text')].map((text) => text.textContent) : [],
          };
        })
      `)) as { id: string; width: number; height: number; dots: number; longestPath: number; markers: string[] }[];
      for (const chart of charts) {
        expect(chart.width, chart.id).toBeGreaterThan(300);
        expect(chart.height, chart.id).toBeGreaterThan(200);
        expect(chart.longestPath, `${chart.id} draws a line`).toBeGreaterThan(100);
        expect(chart.markers, `${chart.id} marks the chosen threshold`).toContain(`done ≥ ${doneThreshold}`);
      }
      expect(charts[0]?.dots).toBeGreaterThan(5);

    });
  }, 60_000);
});
