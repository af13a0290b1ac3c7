// Generates examples/cases/labelled-cases.jsonl: synthetic, human-style labelled
// completion checks for `stopwise calibrate`. Seeded, so the file is the same
// on every run:
//
//   npx tsx examples/cases/generate-cases.ts
//
// Each case draws a true chance q that the run is done (logit-normal), a label
// from q, and the decision model's reported probability from q distorted per
// task type: "bugfix" is well calibrated, "feature" is over-confident (logits
// stretched by 2.2: the model says 0.95 when the truth is about 0.8) and
// "refactor" is under-confident (logits squeezed by 0.6). The reported value
// is the lowest of two criteria; the other one sits above it. Test evidence
// depends on the label: done runs nearly always pass, not-done runs often fail
// or run no tests; one case in twenty carries no test evidence at all.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSeededRandom } from '../../src/calibrate/seeded-random.js';

const SEED = 20_240_611;
const PER_TYPE = 220;
const STRETCH: Record<string, number> = { bugfix: 1, feature: 2.2, refactor: 0.6 };

const random = createSeededRandom(SEED);
const normal = (): number => {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
};
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
const round = (p: number): number => Math.min(0.999, Math.max(0.001, Math.round(p * 1000) / 1000));

const lines: string[] = [];
for (const taskType of Object.keys(STRETCH)) {
  for (let index = 0; index < PER_TYPE; index++) {
    const trueLogit = 0.9 + 1.8 * normal();
    const done = random() < sigmoid(trueLogit);
    const reported = round(sigmoid(trueLogit * (STRETCH[taskType] as number)));
    const other = round(reported + (1 - reported) * random());
    const roll = random();
    const tests = done
      ? roll < 0.95
        ? { passed: true, failed: [], ran: 20 + Math.floor(random() * 80) }
        : roll < 0.98
          ? { passed: false, failed: ['flaky > retries the upload'], ran: 40 }
          : { passed: false, failed: [], ran: 0 }
      : roll < 0.7
        ? { passed: true, failed: [], ran: 20 + Math.floor(random() * 80) }
        : roll < 0.9
          ? { passed: false, failed: ['acceptance > covers the edge case'], ran: 35 }
          : { passed: false, failed: [], ran: 0 };
    const withTests = random() >= 0.05;
    const firstIsLowest = random() < 0.5;
    lines.push(
      JSON.stringify({
        id: `${taskType}-${String(index + 1).padStart(3, '0')}`,
        taskType,
        probabilities: firstIsLowest
          ? { acceptanceCovered: reported, noOpenQuestions: other }
          : { acceptanceCovered: other, noOpenQuestions: reported },
        ...(withTests ? { tests } : {}),
        label: done ? 'done' : 'not_done',
      }),
    );
  }
}

const target = fileURLToPath(new URL('labelled-cases.jsonl', import.meta.url));
writeFileSync(target, `${lines.join('\n')}\n`);
console.log(`wrote ${lines.length} cases to examples/cases/labelled-cases.jsonl`);
