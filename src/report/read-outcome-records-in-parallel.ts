import { availableParallelism } from 'node:os';
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { describeFsError } from '../input/describe-fs-error.js';
import { mergeOutcomeSegments, type ParseOutcomeRecordsOptions } from './parse-outcome-records.js';
import { readOutcomeRecordsFile, readOutcomeSegmentFile, type ByteRange, type OutcomeRecordsFile, type OutcomeSegmentFile } from './read-outcome-records-file.js';

/** How {@link readOutcomeRecordsFileInParallel} splits the work. */
export interface ParallelReadOptions {
  /** Threads in all, this one included (default: the CPUs Node may use, at most 4). */
  readonly threads?: number;
  /** The smallest part worth a thread of its own (default 16 MiB): a smaller file is read on this thread alone. */
  readonly minPartBytes?: number;
  /** The built worker script (default: `read-outcomes-worker.js` beside this module). */
  readonly workerUrl?: URL;
}

const DEFAULT_MIN_PART_BYTES = 16 * 1024 * 1024;
/** How far past a split point a line's newline is looked for, per read. */
const PROBE_BYTES = 64 * 1024;

/**
 * `readOutcomeRecordsFile` on several threads: the file is cut at newlines
 * into parts of about equal size, this thread reads the first and a worker
 * thread each other, and the parts are merged in file order, so the runs, the
 * line numbers and the first error are those of a read from end to end. A
 * file under two parts' worth, a machine with one CPU, or a worker that cannot
 * start falls back to the one-thread read. Never rejects.
 */
export async function readOutcomeRecordsFileInParallel(
  path: string,
  source = path,
  options: ParseOutcomeRecordsOptions = {},
  parallel: ParallelReadOptions = {},
): Promise<OutcomeRecordsFile> {
  const threads = Math.max(1, Math.floor(parallel.threads ?? Math.min(4, availableParallelism())));
  const minPartBytes = parallel.minPartBytes ?? DEFAULT_MIN_PART_BYTES;
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    return { ok: false, io: describeFsError(error) };
  }
  const parts = Math.min(threads, Math.floor(size / minPartBytes));
  if (parts < 2) return readOutcomeRecordsFile(path, source, options);
  let ranges: ByteRange[];
  try {
    ranges = await splitAtNewlines(path, size, parts);
  } catch (error) {
    return { ok: false, io: describeFsError(error) };
  }
  if (ranges.length < 2) return readOutcomeRecordsFile(path, source, options);
  const workerUrl = parallel.workerUrl ?? new URL('./read-outcomes-worker.js', import.meta.url);
  const [own, ...others] = ranges as [ByteRange, ...ByteRange[]];
  const started = others.map((range) => inWorker(workerUrl, path, range, options));
  const reads = await Promise.all([readOutcomeSegmentFile(path, own, options), ...started]);
  const segments = [];
  let lineOffset = 0;
  for (const read of reads) {
    if (read === 'no-worker') return readOutcomeRecordsFile(path, source, options);
    if (!read.ok) return read;
    segments.push({ segment: read.segment, lineOffset });
    lineOffset += read.lines;
  }
  return mergeOutcomeSegments(source, segments);
}

/** `parts` ranges of about equal size, each but the last ending just after a newline; fewer when lines are longer than a part. */
async function splitAtNewlines(path: string, size: number, parts: number): Promise<ByteRange[]> {
  const file = await open(path, 'r');
  try {
    const ranges: ByteRange[] = [];
    const buffer = Buffer.alloc(PROBE_BYTES);
    let start = 0;
    for (let k = 1; k < parts; k++) {
      let at = Math.max(start, Math.floor((size * k) / parts));
      let cut = -1;
      while (cut === -1 && at < size) {
        const { bytesRead } = await file.read(buffer, 0, PROBE_BYTES, at);
        if (bytesRead === 0) break;
        const newline = buffer.subarray(0, bytesRead).indexOf(10);
        if (newline === -1) at += bytesRead;
        else cut = at + newline + 1;
      }
      if (cut === -1 || cut >= size) break;
      if (cut > start) {
        ranges.push({ start, end: cut });
        start = cut;
      }
    }
    ranges.push({ start, end: size });
    return ranges;
  } finally {
    await file.close();
  }
}

/** One part read by a worker thread; `'no-worker'` when the thread could not run (the caller reads on its own). */
function inWorker(url: URL, path: string, range: ByteRange, options: ParseOutcomeRecordsOptions): Promise<OutcomeSegmentFile | 'no-worker'> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(url, { workerData: { path, range, options } });
    } catch {
      resolve('no-worker');
      return;
    }
    let settled = false;
    worker.once('message', (read: OutcomeSegmentFile) => {
      settled = true;
      resolve(read);
      void worker.terminate();
    });
    worker.once('error', () => {
      if (!settled) resolve('no-worker');
      settled = true;
    });
    worker.once('exit', () => {
      if (!settled) resolve('no-worker');
      settled = true;
    });
  });
}
