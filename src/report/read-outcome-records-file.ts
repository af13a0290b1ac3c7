import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { describeFsError } from '../input/describe-fs-error.js';
import { createOutcomeRecordReader, type OutcomeRecordsResult, type ParseOutcomeRecordsOptions } from './parse-outcome-records.js';

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
  const decoder = new StringDecoder('utf8');
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let rest = '';
  let number = 1;
  let reading = true;
  try {
    for await (const chunk of stream) {
      const text = rest + decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        reading = reader.line(text.slice(start, end), number);
        number += 1;
        start = end + 1;
        if (!reading) break;
      }
      if (!reading) break;
      rest = text.slice(start);
    }
    if (reading) reader.line(rest + decoder.end(), number);
  } catch (error) {
    return { ok: false, io: describeFsError(error) };
  } finally {
    stream.destroy();
  }
  return reader.result();
}
