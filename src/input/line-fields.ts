import { describeValue } from '../core/test-evidence.js';

/** Why a line-oriented input could not be read, and where. */
export interface LineError {
  readonly source: string;
  /** 1-based line number; absent when the problem is the input as a whole. */
  readonly line?: number;
  /** The field that was wrong, as a dotted path. */
  readonly field?: string;
  readonly message: string;
}

/** Thrown while reading one line; the caller adds the source and line number. */
export class LineFieldError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Builds a {@link LineError}, leaving out what is not known. */
export function lineError(source: string, line: number | undefined, field: string | undefined, message: string): LineError {
  return { source, ...(line === undefined ? {} : { line }), ...(field === undefined ? {} : { field }), message };
}

/** Formats an error as `source:line: field: message`. */
export function formatLineError(error: LineError): string {
  const where = error.line === undefined ? error.source : `${error.source}:${error.line}`;
  return `${where}: ${error.field === undefined ? '' : `${error.field}: `}${error.message}`;
}

/** The value as a JSON object, or a {@link LineFieldError} naming `field` (none for the line itself). */
export function readObject(value: unknown, field: string | undefined): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LineFieldError(`must be a JSON object, got ${describeValue(value)}`, field);
  }
  return value as Record<string, unknown>;
}

/** The value as a string, or a {@link LineFieldError} naming `field`. */
export function readString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new LineFieldError(`must be a string, got ${describeValue(value)}`, field);
  return value;
}

/** The value as an array of strings, or a {@link LineFieldError} naming the field or the item. */
export function readStringArray(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new LineFieldError(`must be an array of strings, got ${describeValue(value)}`, field);
  return value.map((item, index) => readString(item, `${field}[${index}]`));
}
