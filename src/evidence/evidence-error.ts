/** What was wrong with a test report. */
export type EvidenceErrorKind =
  /** Nothing to read: an empty file or stream, or no TAP at all. */
  | 'empty'
  /** Not well-formed: broken XML or JSON, bytes that are not text. */
  | 'syntax'
  /** The document ended before its root element or value was closed. */
  | 'truncated'
  /** Well-formed, but not the report the reader expects (wrong root element, fields of the wrong type). */
  | 'shape'
  /** The report file could not be read. */
  | 'unreadable';

/** Where in a report an {@link EvidenceError} was found, as far as the format tells. */
export interface EvidenceErrorLocation {
  /** The file, when the report was read from one. */
  readonly file?: string;
  /** 1-based line. */
  readonly line?: number;
  /** 1-based column. */
  readonly column?: number;
  /** The XML element being read, e.g. `testcase`. */
  readonly element?: string;
  /** The JSON path of the offending value, e.g. `testResults[0].assertionResults[2].status`. */
  readonly path?: string;
}

/** The test-report formats stopwise reads. */
export type ReportFormat = 'junit' | 'tap' | 'vitest-json' | 'jest-json';

const MARKER = Symbol.for('stopwise.EvidenceError');

/**
 * The one error a report reader throws for bad input, tagged by `kind`, with
 * where it was found. Bad input never becomes a pass.
 *
 * @example
 * try { await readJUnitXml('<html/>'); } catch (error) {
 *   if (EvidenceError.isInstance(error)) console.error(error.kind, error.line, error.element); // 'shape' 1 'html'
 * }
 */
export class EvidenceError extends Error implements EvidenceErrorLocation {
  override readonly name = 'EvidenceError';
  readonly kind: EvidenceErrorKind;
  readonly format: ReportFormat;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly element?: string;
  readonly path?: string;
  readonly [MARKER] = true;

  constructor(
    kind: EvidenceErrorKind,
    format: ReportFormat,
    message: string,
    location: EvidenceErrorLocation = {},
    options: { cause?: unknown } = {},
  ) {
    super(describeLocation(message, location), options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.format = format;
    Object.assign(this, compactLocation(location));
  }

  /** True for an `EvidenceError`, also one thrown by another copy of this package. */
  static isInstance(value: unknown): value is EvidenceError {
    return isEvidenceError(value);
  }

  /** The same error with the file it came from. */
  withFile(file: string): EvidenceError {
    if (this.file !== undefined) return this;
    return new EvidenceError(this.kind, this.format, this.detail, { ...compactLocation(this), file }, { cause: this.cause });
  }

  /** The message without the location prefix. */
  get detail(): string {
    const prefix = locationPrefix(this);
    return prefix === '' ? this.message : this.message.slice(prefix.length + 2);
  }

  toJSON(): { name: string; kind: EvidenceErrorKind; format: ReportFormat; message: string } & EvidenceErrorLocation {
    return {
      name: this.name,
      kind: this.kind,
      format: this.format,
      message: this.message,
      ...compactLocation(this),
    };
  }
}

/** True for an `EvidenceError`, also one from another copy of this package. */
export function isEvidenceError(value: unknown): value is EvidenceError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

type LooseLocation = { readonly [K in keyof EvidenceErrorLocation]?: EvidenceErrorLocation[K] | undefined };

function compactLocation(location: LooseLocation): EvidenceErrorLocation {
  const out: { -readonly [K in keyof EvidenceErrorLocation]?: EvidenceErrorLocation[K] } = {};
  if (location.file !== undefined) out.file = location.file;
  if (location.line !== undefined) out.line = location.line;
  if (location.column !== undefined) out.column = location.column;
  if (location.element !== undefined) out.element = location.element;
  if (location.path !== undefined) out.path = location.path;
  return out;
}

function locationPrefix(location: LooseLocation): string {
  const parts: string[] = [];
  if (location.file !== undefined) parts.push(location.file);
  if (location.line !== undefined) parts.push(`line ${location.line}${location.column === undefined ? '' : `:${location.column}`}`);
  if (location.element !== undefined) parts.push(`<${location.element}>`);
  if (location.path !== undefined) parts.push(location.path);
  return parts.join(', ');
}

function describeLocation(message: string, location: EvidenceErrorLocation): string {
  const prefix = locationPrefix(location);
  return prefix === '' ? message : `${prefix}: ${message}`;
}
