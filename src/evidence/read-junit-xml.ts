import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { EvidenceError } from './evidence-error.js';
import { mergeEvidence } from './merge-evidence.js';
import {
  MAX_FAILURE_MESSAGE_LENGTH,
  addFailure,
  createTally,
  finishTally,
  type ReportEvidence,
  type TestTally,
} from './report-evidence.js';
import { decodeReport, type ReportSource } from './report-source.js';

/** Options of {@link readJUnitXml}. */
export interface ReadJUnitXmlOptions {
  /**
   * Ignore any text before the XML starts (the first `<?xml`, `<testsuites` or
   * `<testsuite`) and after its root element ends: for a report printed on
   * stdout among other output.
   */
  readonly skipSurroundingText?: boolean;
}

/**
 * Reads a JUnit XML report as vitest, jest-junit, node:test, pytest, Maven
 * Surefire, gotestsum and cargo nextest write it: a `<testsuites>` root or a
 * bare `<testsuite>`, nested suites, `<failure>` and `<error>` as failures,
 * `<skipped>` as skipped (also when a failure sits beside it, as node:test
 * writes a failing todo). The source is parsed as a stream: memory grows with
 * one test case and the failed names, not with the file. Several sources are
 * merged. Throws an {@link EvidenceError} for anything that is not such a report.
 *
 * @example
 * const evidence = await readJUnitXml(createReadStream('reports/junit.xml'));
 * evidence.passed; evidence.failed; // ['math.test.ts > math > division > rounds down']
 */
export async function readJUnitXml(
  source: ReportSource | readonly ReportSource[],
  options: ReadJUnitXmlOptions = {},
): Promise<ReportEvidence> {
  if (Array.isArray(source)) {
    const all: ReportEvidence[] = [];
    for (const one of source as readonly ReportSource[]) all.push(await readOneJUnitXml(one, options));
    return mergeEvidence(all);
  }
  return readOneJUnitXml(source as ReportSource, options);
}

const XML_START = /<\?xml|<testsuites[\s>/]|<testsuite[\s>/]/;

interface OpenCase {
  /** The `<testcase>` tag: its names are read only if the case fails. */
  readonly tag: SaxesTagPlain;
  readonly suitePath: readonly string[];
  failed: boolean;
  skipped: boolean;
  message: string;
  collecting: boolean;
}

async function readOneJUnitXml(source: ReportSource, options: ReadJUnitXmlOptions): Promise<ReportEvidence> {
  const reader = new JUnitReader(options.skipSurroundingText === true);
  let waiting = options.skipSurroundingText === true;
  let carry = '';
  for await (const text of decodeReport(source)) {
    if (!waiting) {
      reader.write(text);
      continue;
    }
    const window = carry + text;
    const match = XML_START.exec(window);
    if (match === null) {
      carry = window.slice(-16);
      continue;
    }
    waiting = false;
    reader.write(window.slice(match.index));
  }
  return reader.end();
}

class JUnitReader {
  readonly #parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  readonly #tally: TestTally = createTally();
  readonly #seen = new Set<string>();
  readonly #stack: string[] = [];
  readonly #suitePath: string[] = [];
  #case: OpenCase | undefined;
  #sawText = false;
  #rootTime: number | undefined;
  #topTime = 0;
  #sawTopTime = false;
  #rootClosed = false;
  readonly #ignoreTrailingText: boolean;

  constructor(ignoreTrailingText: boolean) {
    this.#ignoreTrailingText = ignoreTrailingText;
    const parser = this.#parser;
    parser.on('error', (error) => {
      if (this.#rootClosed && this.#ignoreTrailingText) return;
      throw this.#syntaxError(error.message);
    });
    parser.on('opentag', (tag) => this.#open(tag));
    parser.on('closetag', (tag) => this.#close(tag));
  }

  /** Text is only listened to while a failure message is collected: saxes then skips building every other text node. */
  #collect(on: boolean): void {
    const current = this.#case;
    if (current !== undefined) current.collecting = on;
    if (on) {
      this.#parser.on('text', this.#onText);
      this.#parser.on('cdata', this.#onText);
    } else {
      this.#parser.off('text');
      this.#parser.off('cdata');
    }
  }

  readonly #onText = (text: string): void => this.#text(text);

  write(text: string): void {
    if (this.#rootClosed && this.#ignoreTrailingText) return;
    if (!this.#sawText && text.trim() !== '') this.#sawText = true;
    this.#chunk = text;
    this.#chunkStart = this.#parser.position;
    this.#writing = true;
    this.#parser.write(text);
    this.#writing = false;
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.#columnBefore += text.length;
      return;
    }
    let last = newline;
    while (newline !== -1) {
      this.#linesBefore += 1;
      last = newline;
      newline = text.indexOf('\n', newline + 1);
    }
    this.#columnBefore = text.length - last - 1;
  }

  // Positions are counted here rather than by saxes (whose per-character
  // tracking costs about a sixth of the parse): newlines are counted per
  // chunk, and the exact column is worked out only when an error is reported.
  #chunk = '';
  #chunkStart = 0;
  #writing = false;
  #linesBefore = 0;
  #columnBefore = 0;

  end(): ReportEvidence {
    if (!this.#sawText) throw new EvidenceError('empty', 'junit', 'the report is empty');
    if (this.#stack.length > 0) {
      const element = this.#stack[this.#stack.length - 1];
      throw new EvidenceError(
        'truncated',
        'junit',
        `the report ends before <${element ?? ''}> is closed (truncated file?)`,
        this.#where(),
      );
    }
    if (!(this.#rootClosed && this.#ignoreTrailingText)) this.#parser.close();
    if (this.#rootTime !== undefined) this.#tally.durationMs = this.#rootTime * 1000;
    else if (this.#sawTopTime) this.#tally.durationMs = this.#topTime * 1000;
    return finishTally(this.#tally);
  }

  #where(): { line: number; column: number; element?: string } {
    const element = this.#stack[this.#stack.length - 1];
    return { ...this.#position(), ...(element === undefined ? {} : { element }) };
  }

  #position(): { line: number; column: number } {
    const offset = this.#parser.position - this.#chunkStart;
    if (!this.#writing || offset < 0 || offset > this.#chunk.length) return { line: this.#linesBefore + 1, column: this.#columnBefore + 1 };
    const before = this.#chunk.slice(0, offset);
    let lines = 0;
    for (let at = before.indexOf('\n'); at !== -1; at = before.indexOf('\n', at + 1)) lines += 1;
    const lastNewline = before.lastIndexOf('\n');
    const column = lastNewline === -1 ? this.#columnBefore + before.length : before.length - lastNewline - 1;
    return { line: this.#linesBefore + lines + 1, column: Math.max(1, column) };
  }

  #syntaxError(message: string): EvidenceError {
    const detail = message;
    if (/^document must contain a root element/.test(detail)) {
      return new EvidenceError('empty', 'junit', 'the report has no root element', this.#where());
    }
    return new EvidenceError('syntax', 'junit', `not well-formed XML: ${detail}`, this.#where());
  }

  #open(tag: SaxesTagPlain): void {
    const name = tag.name;
    const depth = this.#stack.length;
    if (depth === 0 && name !== 'testsuites' && name !== 'testsuite') {
      throw new EvidenceError('shape', 'junit', `the root element is <${name}>, expected <testsuites> or <testsuite>`, {
        ...this.#position(),
        element: name,
      });
    }
    this.#stack.push(name);
    const current = this.#case;
    if (current !== undefined) {
      if (name === 'testcase' || name === 'testsuite') {
        throw new EvidenceError('shape', 'junit', `a <${name}> inside a <testcase> is not a JUnit report`, {
          ...this.#position(),
          element: name,
        });
      }
      // A <failure> or <error> anywhere inside the case fails it; other children only count directly under it.
      if (depth === this.#caseDepthValue + 1 || name === 'failure' || name === 'error') this.#openInCase(current, tag);
      return;
    }
    if (name === 'testsuite') {
      this.#suitePath.push(attribute(tag, 'name'));
      this.#snapshot = undefined;
      if (depth <= 1) this.#addTopTime(tag, depth);
    } else if (name === 'testcase') {
      this.#caseDepthValue = depth;
      this.#case = {
        tag,
        suitePath: this.#suitePathSnapshot(),
        failed: false,
        skipped: false,
        message: '',
        collecting: false,
      };
      if (depth === 1) this.#addTopTime(tag, depth);
    } else if (name === 'testsuites' && depth === 0) {
      this.#rootTime = seconds(tag.attributes['time']);
    }
  }

  #caseDepthValue = -1;
  #snapshot: readonly string[] | undefined;

  /** The suite path, copied once per change of suite rather than once per test case. */
  #suitePathSnapshot(): readonly string[] {
    this.#snapshot ??= [...this.#suitePath];
    return this.#snapshot;
  }

  #addTopTime(tag: SaxesTagPlain, depth: number): void {
    const time = seconds(tag.attributes['time']);
    if (depth === 0) {
      this.#rootTime = time;
      return;
    }
    if (time !== undefined) {
      this.#topTime += time;
      this.#sawTopTime = true;
    }
  }

  #openInCase(current: OpenCase, tag: SaxesTagPlain): void {
    switch (tag.name) {
      case 'failure':
      case 'error': {
        const first = !current.failed;
        current.failed = true;
        if (first) {
          const message = attribute(tag, 'message').trim();
          current.message = message;
          if (message === '') this.#collect(true);
        }
        break;
      }
      case 'skipped':
        current.skipped = true;
        break;
      default:
        break;
    }
  }

  #text(text: string): void {
    const current = this.#case;
    if (current === undefined || !current.collecting) return;
    current.message += text.length > MAX_FAILURE_MESSAGE_LENGTH ? text.slice(0, MAX_FAILURE_MESSAGE_LENGTH + 1) : text;
    if (current.message.length > MAX_FAILURE_MESSAGE_LENGTH) this.#collect(false);
  }

  #close(tag: SaxesTagPlain): void {
    this.#stack.pop();
    const depth = this.#stack.length;
    if (depth === 0) this.#rootClosed = true;
    const current = this.#case;
    if (current !== undefined) {
      if (current.collecting && depth === this.#caseDepthValue + 1 && (tag.name === 'failure' || tag.name === 'error')) this.#collect(false);
      if (depth === this.#caseDepthValue && tag.name === 'testcase') {
        this.#finishCase(current);
        this.#case = undefined;
        this.#caseDepthValue = -1;
      }
      return;
    }
    if (tag.name === 'testsuite') {
      this.#suitePath.pop();
      this.#snapshot = undefined;
    }
  }

  #finishCase(current: OpenCase): void {
    if (current.skipped) {
      this.#tally.skipped += 1;
      return;
    }
    this.#tally.ran += 1;
    if (current.failed) addFailure(this.#tally, junitTestName(current), current.message, this.#seen);
  }
}

/**
 * The name of a test case the way its runner shows it: `classname > name`
 * when the class name says where the test lives (a file, a Java class, a Go
 * package), the name alone when it already starts with the class name
 * (jest-junit), and the suite path then the name when there is no class name
 * or only node:test's placeholder `test`.
 */
function junitTestName(current: OpenCase): string {
  const given = attribute(current.tag, 'name').trim();
  const name = given === '' ? '(unnamed test case)' : given;
  const classname = attribute(current.tag, 'classname').trim();
  if (classname !== '' && classname !== 'test') {
    return name.startsWith(classname) ? name : `${classname} > ${name}`;
  }
  const path = current.suitePath.map((part) => part.trim()).filter((part) => part !== '');
  return [...path, name].join(' > ');
}

function attribute(tag: SaxesTagPlain, name: string): string {
  const value = tag.attributes[name];
  return typeof value === 'string' ? value : '';
}

function seconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number.parseFloat(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}
