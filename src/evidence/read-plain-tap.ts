import { createTally, finishTally, type ReportEvidence } from './report-evidence.js';

// An optional version line, then a plan `1..N` and N passing test points
// numbered 1 to N in order (the plan first or last), and nothing else.
const VERSION = /^TAP version 1[34]$/;
const PLAN = /^1\.\.([1-9]\d{0,8})$/;
// A description starts with neither a dash nor a space, ends with a word character, a dot, a bracket or a
// quote, and holds no `#` (a directive), backslash (an escape) or brace (a subtest).
const DESCRIPTION = String.raw`[\w,.:;'"()/<>=+*!?@$%&|~](?:[\w ,.:;'"()/<>=+*!?@$%&|~-]*[\w.)'"])?`;
const PASSING_POINT = new RegExp(String.raw`^ok ([1-9]\d{0,8})(?:(?: - | )${DESCRIPTION})?$`);

/**
 * The evidence of TAP that is only passing test points: an optional
 * `TAP version 13` or `14` line, a plan `1..N`, then `ok 1` to `ok N` in order
 * (or the plan after them), each with at most a plain description, one a line.
 * `undefined` for anything else (a failure, a directive, a comment, a subtest,
 * YAML diagnostics, other output): `readTap` reads that. Where it answers, it
 * gives what `readTap` gives, without loading a TAP parser.
 */
export function readPlainTap(text: string): ReportEvidence | undefined {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let at = 0;
  if (lines[0] !== undefined && VERSION.test(lines[0])) at = 1;
  let planned: number | undefined;
  const leading = PLAN.exec(lines[at] ?? '');
  if (leading !== null) {
    planned = Number(leading[1]);
    at += 1;
  }
  let count = 0;
  for (; at < lines.length; at++) {
    const point = PASSING_POINT.exec(lines[at] as string);
    if (point === null) break;
    if (Number(point[1]) !== count + 1) return undefined;
    count += 1;
  }
  if (planned === undefined) {
    const trailing = PLAN.exec(lines[at] ?? '');
    if (trailing === null) return undefined;
    planned = Number(trailing[1]);
    at += 1;
  }
  if (at !== lines.length || count !== planned) return undefined;
  const tally = createTally();
  tally.ran = count;
  return finishTally(tally);
}
