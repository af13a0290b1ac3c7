// Helper process of evidence.bench.ts: runs saxes alone over a file (counting
// opening tags, no reader) and prints one sample a run as JSON.
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';

const [file, position, runs] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: saxes-alone.ts FILE POSITION RUNS');
const path: string = file;
const gc = (globalThis as { gc?: () => void }).gc;

async function once(): Promise<number> {
  const parser = new SaxesParser({ position: position === 'true' });
  let tags = 0;
  parser.on('opentag', () => {
    tags++;
  });
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) parser.write(chunk as string);
  parser.close();
  return tags;
}

const samples = [];
for (let i = 0; i < Number(runs ?? 5); i++) {
  gc?.();
  const start = process.memoryUsage();
  let heap = start.heapUsed;
  let rss = start.rss;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed);
    rss = Math.max(rss, now.rss);
  }, 5);
  const began = performance.now();
  const cpu = process.cpuUsage();
  await once();
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - began;
  clearInterval(timer);
  samples.push({ ms, cpuMs: (used.user + used.system) / 1000, heap: heap - start.heapUsed, rss: rss - start.rss });
}
process.stdout.write(JSON.stringify(samples));
