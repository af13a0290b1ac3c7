import { Bench } from 'tinybench';

/** Mean time per call in microseconds, and calls per second, measured by tinybench. */
export async function measure(
  tasks: Readonly<Record<string, () => unknown>>,
  options: { timeMs?: number; warmupMs?: number } = {},
): Promise<Record<string, { meanUs: number; p50Us: number; opsPerSecond: number; samples: number }>> {
  const bench = new Bench({ time: options.timeMs ?? 600, warmupTime: options.warmupMs ?? 150 });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  const out: Record<string, { meanUs: number; p50Us: number; opsPerSecond: number; samples: number }> = {};
  for (const task of bench.tasks) {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`benchmark ${task.name} did not complete: ${result.state}`);
    out[task.name] = {
      meanUs: result.latency.mean * 1000,
      p50Us: result.latency.p50 * 1000,
      opsPerSecond: 1000 / result.latency.mean,
      samples: result.latency.samples?.length ?? 0,
    };
  }
  return out;
}

/** Forces a full collection; the bench runs with --expose-gc. */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run the benchmarks with node --expose-gc');
  gc();
  gc();
}

/** Heap bytes still in use after `run` returns, while what it returns is kept alive. */
export function heapRetained<T>(run: () => T): { bytes: number; kept: T } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const kept = run();
  collect();
  const after = process.memoryUsage().heapUsed;
  return { bytes: after - before, kept };
}

/** Formats a byte count for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 0) return `-${formatBytes(-bytes)} (noise)`;
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** Prints a section heading and a padded table. */
export function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(`\n## ${title}\n`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
