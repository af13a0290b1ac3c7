import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CachedScore, ScoreCache } from './score-cases.js';
import { setOwnProperty } from '../core/own-property.js';

/** A {@link ScoreCache} kept in a JSON Lines file, and what was found in it when opened. */
export interface ScoreCacheFile extends ScoreCache {
  readonly path: string;
  /** Answers read from the file when it was opened. */
  readonly loaded: number;
  /** Lines that could not be read (for example one cut short when a run was killed); they are ignored. */
  readonly skippedLines: number;
  /** Resolves when every answer set so far is on disk. */
  flush(): Promise<void>;
}

/**
 * Opens (or creates) a score cache file: one JSON object a line,
 * `{ key, model, probabilities }`, appended as each answer arrives, so a run
 * killed part-way keeps every answer it had. A line cut short by the kill is
 * skipped when the file is opened again.
 *
 * @example
 * const cache = await openScoreCacheFile('.stopwise/scores.jsonl');
 * await scoreCases(cases, client, { cache });
 */
export async function openScoreCacheFile(path: string): Promise<ScoreCacheFile> {
  const entries = new Map<string, CachedScore>();
  let skippedLines = 0;
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = readEntry(line);
    if (entry === undefined) skippedLines++;
    else entries.set(entry.key, { probabilities: entry.probabilities, model: entry.model });
  }
  let writes: Promise<void> = text === '' || text.endsWith('\n') ? Promise.resolve() : appendFile(path, '\n');
  return {
    path,
    loaded: entries.size,
    skippedLines,
    get: (key) => entries.get(key),
    set(key, score) {
      entries.set(key, score);
      const line = `${JSON.stringify({ key, model: score.model, probabilities: score.probabilities })}\n`;
      writes = writes.then(() => appendFile(path, line));
      return writes;
    },
    flush: () => writes,
  };
}

function readEntry(line: string): { key: string; model: string; probabilities: Record<string, number> } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { key, model, probabilities } = value as Record<string, unknown>;
  if (typeof key !== 'string' || typeof model !== 'string') return undefined;
  if (typeof probabilities !== 'object' || probabilities === null || Array.isArray(probabilities)) return undefined;
  const out: Record<string, number> = {};
  for (const [name, probability] of Object.entries(probabilities)) {
    if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) return undefined;
    setOwnProperty(out, name, probability);
  }
  return { key, model, probabilities: out };
}
