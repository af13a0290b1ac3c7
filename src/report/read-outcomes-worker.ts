// A worker thread of `readOutcomeRecordsFileInParallel`: reads one part of an outcomes file and posts back its
// segment (plain data: the runs and the problems, numbered from the part's first line).
import { parentPort, workerData } from 'node:worker_threads';
import type { ParseOutcomeRecordsOptions } from './parse-outcome-records.js';
import { readOutcomeSegmentFile, type ByteRange } from './read-outcome-records-file.js';

const { path, range, options } = workerData as { path: string; range: ByteRange; options: ParseOutcomeRecordsOptions };
parentPort?.postMessage(await readOutcomeSegmentFile(path, range, options));
