import { Parser, type FinalResults, type Result } from 'tap-parser';
import { EvidenceError } from './evidence-error.js';
import { InspectedYamlRepair } from './inspected-yaml-repair.js';
import { addFailure, createTally, finishTally, type ReportEvidence, type TestTally } from './report-evidence.js';
import { decodeReport, type ReportSource } from './report-source.js';

/**
 * Reads TAP 13 or 14 as node:test, node-tap, Perl's Test::More and others
 * write it. Counts the innermost test points (a subtest that holds tests is a
 * suite, not a test) with the subtest path in the name (`math > division >
 * rounds down`); `# SKIP` and `# TODO` count as skipped, and a failing TODO
 * does not fail the run. `Bail out!` fails the run (`reason: 'bailed_out'`);
 * a plan that does not match the test points seen, or a missing plan, fails
 * it as incomplete (`reason: 'incomplete'`). Lines that are not TAP are
 * ignored; input with no TAP at all throws an {@link EvidenceError}.
 *
 * @example
 * const evidence = await readTap('TAP version 14\n1..2\nok 1 - adds\nnot ok 2 - divides\n');
 * evidence.failed; // ['divides']
 */
export async function readTap(source: ReportSource): Promise<ReportEvidence> {
  const reader = new TapReader();
  for await (const text of decodeReport(source)) reader.write(text);
  return reader.end();
}

interface SubtestScope {
  readonly parent: SubtestScope | undefined;
  leaves: number;
  failedLeaves: number;
  lastChild: SubtestScope | undefined;
}

interface Diagnostics {
  readonly type?: unknown;
  readonly error?: unknown;
  readonly message?: unknown;
  readonly diff?: unknown;
  readonly stack?: unknown;
  readonly duration_ms?: unknown;
}

class TapReader {
  readonly #parser = new Parser({ bail: false, strict: false });
  readonly #tally: TestTally = createTally();
  readonly #repair = new InspectedYamlRepair();
  readonly #seen = new Set<string>();
  #line = 0;
  #partial = '';
  #sawTap = false;
  #sawPlan = false;
  #results: FinalResults | undefined;
  #durationMs: number | undefined;
  #ending = false;

  constructor() {
    const root: SubtestScope = { parent: undefined, leaves: 0, failedLeaves: 0, lastChild: undefined };
    this.#attach(this.#parser, root);
    this.#parser.on('version', () => {
      if (this.#ending) return;
      this.#sawTap = true;
    });
    this.#parser.on('plan', () => {
      if (this.#ending) return;
      this.#sawTap = true;
      this.#sawPlan = true;
    });
    this.#parser.on('bailout', (reason: string) => this.#bailOut(reason));
    this.#parser.on('comment', (comment: string) => this.#comment(comment));
    this.#parser.on('complete', (results: FinalResults) => {
      this.#results = results;
    });
  }

  write(text: string): void {
    const lines = (this.#partial + text).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#writeLine(line);
  }

  end(): ReportEvidence {
    if (this.#partial !== '') this.#writeLine(this.#partial);
    this.#partial = '';
    this.#ending = true;
    this.#parser.end();
    if (!this.#sawTap) {
      throw new EvidenceError('empty', 'tap', 'no TAP found: no version line, plan or test point', { line: Math.max(1, this.#line) });
    }
    this.#checkPlan();
    if (this.#durationMs !== undefined) this.#tally.durationMs = this.#durationMs;
    return finishTally(this.#tally);
  }

  #writeLine(line: string): void {
    this.#line += 1;
    this.#parser.write(`${this.#repair.line(line)}\n`);
  }

  #attach(parser: Parser, scope: SubtestScope): void {
    parser.on('child', (child: Parser) => {
      const childScope: SubtestScope = { parent: scope, leaves: 0, failedLeaves: 0, lastChild: undefined };
      scope.lastChild = childScope;
      this.#attach(child, childScope);
    });
    parser.on('assert', (result: Result) => this.#assert(result, scope));
    parser.on('complete', (results: FinalResults) => this.#subtestComplete(parser, results));
  }

  #assert(result: Result, scope: SubtestScope): void {
    this.#sawTap = true;
    const diag = (result.diag ?? {}) as Diagnostics;
    const child = result.closingTestPoint ? scope.lastChild : undefined;
    if (result.closingTestPoint) scope.lastChild = undefined;
    const isSuite = (child !== undefined && child.leaves > 0) || diag.type === 'suite';
    const excused = result.skip !== false || result.todo !== false;
    if (isSuite) {
      if (!result.ok && !excused && (child === undefined || child.failedLeaves === 0)) {
        this.#tally.ran += 1;
        this.#fail(result, diag, scope);
      }
      return;
    }
    if (excused) {
      this.#tally.skipped += 1;
      return;
    }
    this.#tally.ran += 1;
    for (let s: SubtestScope | undefined = scope; s !== undefined; s = s.parent) s.leaves += 1;
    if (!result.ok) this.#fail(result, diag, scope);
  }

  #fail(result: Result, diag: Diagnostics, scope: SubtestScope): void {
    for (let s: SubtestScope | undefined = scope; s !== undefined; s = s.parent) s.failedLeaves += 1;
    addFailure(this.#tally, testPointName(result), failureMessage(diag), this.#seen);
  }

  #subtestComplete(parser: Parser, results: FinalResults): void {
    if (parser === this.#parser || this.#tally.reason !== undefined) return;
    for (const failure of results.failures) {
      const tapError: unknown = failure.tapError;
      if (typeof tapError === 'string' && tapError !== '') {
        this.#tally.reason = 'incomplete';
        this.#tally.detail = `subtest "${parser.fullname}" is incomplete: ${tapError}`;
        return;
      }
    }
  }

  #bailOut(reason: string): void {
    this.#sawTap = true;
    if (this.#tally.reason === 'bailed_out') return;
    this.#tally.reason = 'bailed_out';
    this.#tally.detail = `Bail out! at line ${this.#line}${reason === '' ? '' : `: ${reason.trim()}`}`;
  }

  #comment(comment: string): void {
    const match = /^#\s*(?:duration_ms\s+([\d.]+)|time=([\d.]+)ms)\s*$/.exec(comment.trim());
    if (match === null) return;
    const value = Number.parseFloat(match[1] ?? match[2] ?? '');
    if (Number.isFinite(value)) this.#durationMs = value;
  }

  #checkPlan(): void {
    if (this.#tally.reason !== undefined) return;
    const results = this.#results;
    if (!this.#sawPlan || results === undefined) {
      this.#tally.reason = 'incomplete';
      this.#tally.detail = `the TAP stream ends without a plan after line ${this.#line} (the run did not finish)`;
      return;
    }
    const { start, end, skipAll } = results.plan;
    if (skipAll) return;
    const planned = start === null || end === null ? 0 : Math.max(0, end - start + 1);
    if (planned !== results.count) {
      this.#tally.reason = 'incomplete';
      this.#tally.detail = `the plan announced ${planned} tests but ${results.count} were seen (the run did not finish)`;
    }
  }
}

function testPointName(result: Result): string {
  const name = result.name.trim();
  if (name !== '') return result.fullname.trim() || name;
  const prefix = result.fullname.trim();
  return prefix === '' ? `test ${result.id}` : `${prefix} > test ${result.id}`;
}

function failureMessage(diag: Diagnostics): string {
  const parts: string[] = [];
  const main = typeof diag.error === 'string' ? diag.error : typeof diag.message === 'string' ? diag.message : undefined;
  if (main !== undefined) parts.push(main);
  if (typeof diag.diff === 'string') parts.push(diag.diff);
  if (parts.length === 0 && typeof diag.stack === 'string') parts.push(diag.stack);
  return parts.join('\n');
}
