import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { describeFsError } from '../input/describe-fs-error.js';
import { createOutcomeRecordReader, type OutcomeRecordsResult, type OutcomeSegment, type ParseOutcomeRecordsOptions } from './parse-outcome-records.js';

/** An outcomes file read, or why it could not be opened or read. */
export type OutcomeRecordsFile = OutcomeRecordsResult | { readonly ok: false; readonly io: string };

/**
 * Reads an outcomes file in chunks (so a file larger than the longest string
 * Node can hold is read too, and only the records' figures stay in memory),
 * the lines as {@link parseOutcomeRecords} reads them. Never rejects: a file
 * that cannot be read comes back as `{ ok: false, io }`.
 *
 * @example
 * const read = await readOutcomeRecordsFile('outcomes.jsonl');
 * if (read.ok) buildOutcomeReport(read.runs);
 */
export async function readOutcomeRecordsFile(path: string, source = path, options: ParseOutcomeRecordsOptions = {}): Promise<OutcomeRecordsFile> {
  const reader = createOutcomeRecordReader(source, options);
  const read = await readLines(path, { start: 0, end: Number.POSITIVE_INFINITY }, reader.line);
  return read.ok ? reader.result() : read;
}

/** A part of a file: from byte `start` (the start of a line) to byte `end` (after a newline, or the end of the file). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** What {@link readOutcomeSegmentFile} read: the part's segment and its number of lines, or why the file could not be read. */
export type OutcomeSegmentFile = { readonly ok: true; readonly segment: OutcomeSegment; readonly lines: number } | { readonly ok: false; readonly io: string };

/**
 * Reads the lines of one part of an outcomes file, numbered from 1 at the
 * part's start, into a segment for `mergeOutcomeSegments`; `lines` is how
 * many newline-ended lines the part holds (the next part's line offset).
 */
export async function readOutcomeSegmentFile(path: string, range: ByteRange, options: ParseOutcomeRecordsOptions = {}): Promise<OutcomeSegmentFile> {
  const reader = createOutcomeRecordReader('', options, range.start === 0);
  const read = await readLines(path, range, reader.line);
  return read.ok ? { ok: true, segment: reader.segment(), lines: read.lines } : read;
}

/**
 * Calls `line` for each line of the range, in order, numbered from 1; the
 * text after the last newline (empty when the range ends with one) is a line
 * too, but not counted in `lines`. Stops when `line` returns false.
 */
async function readLines(
  path: string,
  range: ByteRange,
  line: (text: string, number: number) => boolean,
): Promise<{ readonly ok: true; readonly lines: number } | { readonly ok: false; readonly io: string }> {
  const decoder = new StringDecoder('utf8');
  const stream = createReadStream(path, {
    highWaterMark: 1 << 20,
    start: range.start,
    ...(Number.isFinite(range.end) ? { end: range.end - 1 } : {}),
  });
  let rest = '';
  let number = 1;
  let reading = true;
  try {
    for await (const chunk of stream) {
      const text = rest + decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        reading = line(text.slice(start, end), number);
        number += 1;
        start = end + 1;
        if (!reading) break;
      }
      if (!reading) break;
      rest = text.slice(start);
    }
    if (reading) line(rest + decoder.end(), number);
  } catch (error) {
    return { ok: false, io: describeFsError(error) };
  } finally {
    stream.destroy();
  }
  return { ok: true, lines: number - 1 };
}
