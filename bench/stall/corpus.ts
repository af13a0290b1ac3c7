// Reads the development corpus of real agent runs (JSON lines, one run a line)
// from ../shared/corpus/ beside the project, and turns its steps into the
// inputs of each detector. Nothing of the corpus is copied into the project.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StallStep } from '../../src/index.js';
import type { OpenHandsEvent } from './openhands-stuck-detector.js';

/** The folder of the corpus, beside the project root. */
export const CORPUS_FOLDER = join(fileURLToPath(new URL('../..', import.meta.url)), '..', 'shared', 'corpus');

export interface CorpusStep {
  readonly i: number;
  readonly tool: string | null;
  readonly action: string | null;
  readonly observation: string | null;
  readonly exit_code: number | null;
  readonly error: boolean | null;
}

export interface CorpusRun {
  readonly id: string;
  readonly framework: string;
  readonly model: string;
  readonly task_id: string;
  readonly steps: readonly CorpusStep[];
  readonly n_steps: number;
  readonly stop_reason: string;
  readonly outcome: { readonly success: boolean | null };
}

export interface UnitCase {
  readonly case_id: string;
  readonly headless_mode: boolean;
  readonly expected_stuck: boolean;
  readonly events: readonly OpenHandsEvent[];
  readonly steps: readonly CorpusStep[];
}

/** The runs of one corpus file, or `undefined` when the file is absent. */
export function readJsonLines<T>(file: string): T[] | undefined {
  const path = join(CORPUS_FOLDER, file);
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Wasted: ended by the budget and not resolved. */
export const isWasted = (run: CorpusRun): boolean => run.stop_reason.startsWith('cost_limit') && run.outcome.success === false;
/** Good: resolved. */
export const isGood = (run: CorpusRun): boolean => run.outcome.success === true;

const MESSAGE_TOOLS = new Set(['DISCUSSION', 'format_error', 'message']);

/** A user message (not an agent step), or the step record of one corpus step. */
export function toStallStep(step: CorpusStep): StallStep | 'user' {
  const action = step.action ?? '';
  const output = step.observation ?? '';
  const status = {
    ...(step.error === null ? {} : { error: step.error }),
    ...(step.exit_code === null ? {} : { exitCode: step.exit_code }),
  };
  const tool = step.tool;
  if (tool === null || tool === '(observation only)') return { output, ...status };
  if (MESSAGE_TOOLS.has(tool)) {
    const spoken = /^message\((\w+)\): ([\s\S]*)$/.exec(action);
    if (spoken?.[1] === 'user') return 'user';
    return { text: spoken?.[2] ?? action, output, ...status };
  }
  const prefix = `${tool}: `;
  return { tool, input: action.startsWith(prefix) ? action.slice(prefix.length) : action, output, ...status };
}

/** The events OpenHands would have recorded for one corpus step (its shell actions and their outputs). */
export function toOpenHandsEvents(step: CorpusStep): OpenHandsEvent[] {
  const record = toStallStep(step);
  if (record === 'user') return [{ kind: 'action', type: 'MessageAction', source: 'user', fields: { content: step.action ?? '' } }];
  if (record.tool === undefined) {
    // The harness answers a message without a command as the user.
    return [
      { kind: 'action', type: 'MessageAction', source: 'agent', fields: { content: record.text ?? '' } },
      { kind: 'action', type: 'MessageAction', source: 'user', fields: { content: record.output ?? '' } },
    ];
  }
  const command = typeof record.input === 'string' ? record.input : JSON.stringify(record.input);
  return [
    { kind: 'action', type: 'CmdRunAction', source: 'agent', fields: { command } },
    {
      kind: 'observation',
      type: 'CmdOutputObservation',
      source: null,
      fields: { command, exit_code: record.exitCode ?? null, content: record.output ?? '' },
    },
  ];
}
