import { assertProbability } from '../core/criterion-probabilities.js';
import { describeValue } from '../core/describe-value.js';
import { setOwnProperty } from '../core/own-property.js';

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

/**
 * Walks JSON Lines text: skips blank lines, parses each other line and hands
 * it to `visit` with its 1-based number. Returns the first problem as a
 * {@link LineError} (invalid JSON, or a {@link LineFieldError} thrown by
 * `visit`), or undefined when every line was read.
 */
export function forEachJsonLine(
  text: string,
  source: string,
  visit: (value: unknown, line: number) => void,
): LineError | undefined {
  const rows = text.split('\n');
  for (let index = 0; index < rows.length; index++) {
    const raw = (rows[index] ?? '').trim();
    if (raw === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return lineError(source, line, undefined, `not valid JSON (${(error as Error).message})`);
    }
    try {
      visit(value, line);
    } catch (error) {
      if (error instanceof LineFieldError) return lineError(source, line, error.field, error.message);
      throw error;
    }
  }
  return undefined;
}

/** The value as named probabilities in [0, 1], or a {@link LineFieldError} naming the criterion. */
export function readProbabilities(value: unknown, field: string): Record<string, number> {
  const probabilities: Record<string, number> = {};
  for (const [name, probability] of Object.entries(readObject(value, field))) {
    try {
      assertProbability(name, probability);
    } catch (error) {
      throw new LineFieldError((error as Error).message, `${field}.${name}`);
    }
    setOwnProperty(probabilities, name, probability);
  }
  return probabilities;
}
