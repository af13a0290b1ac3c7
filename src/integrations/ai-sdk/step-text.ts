import { safeJson } from '../../core/describe-value.js';
/** The parts of an AI SDK step result these helpers read. */
export interface StepTextParts {
  readonly text: string;
  readonly toolCalls: ReadonlyArray<{ readonly toolName: string; readonly input: unknown }>;
}

/** The text of every step that said something, in order, separated by blank lines. */
export function stepsText(steps: ReadonlyArray<StepTextParts>): string {
  return steps
    .map((step) => step.text)
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}

/**
 * What one step did, as text for its progress fingerprint: its text and each
 * tool call with its input. Two steps that say and call the same are the same.
 */
export function stepProgressText(step: StepTextParts): string {
  let text = step.text;
  for (const call of step.toolCalls) text += `\n[${call.toolName} ${safeJson(call.input)}]`;
  return text;
}
