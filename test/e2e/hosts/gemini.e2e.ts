import { geminiHost } from './gemini-host.js';
import { describeHost } from './describe-host.js';

describeHost(geminiHost, {
  // The reason is the whole text of a user message part of its own.
  reasonWrappers: [{ name: 'none: a user message of its own', before: () => '', maxChars: () => 0 }],
  person: {
    block: (firstLine) => `[WARNING] Agent execution blocked: ${firstLine}`,
    line: (text) => `Hook system message: ${text}`,
  },
  guard: { nudgeAfterCall: 3, hostLoopDetection: { call: 5, message: 'Potential loop detected' } },
  knownProblems: {
    runNotEndedByHost:
      'Gemini CLI sends stop_hook_active: false to the AfterAgent after a block when the retry ran a tool (its tool loop ' +
      'starts a new turn without the flag), with the same `prompt` and a `prompt_response` that extends the blocked one, so ' +
      'stopwise records previousRunEndedBy "host" although the run went on. Fix in src/hosts/gemini.ts and stop-hook.ts: ' +
      'keep the blocked stop\'s prompt and read an AfterAgent with the same prompt whose prompt_response starts with the ' +
      'blocked one as a re-entry',
    refusal:
      'Gemini CLI ends a shell result with `Process Group PGID: <n>`, a new number at every run; normalize-output.ts masks ' +
      '`pid 42` and `PID: 42` but not `PGID: 42`, so each repeat reads as a new result (progress) and the guard never ' +
      'refuses. Fix: add PGID to the process-id pattern of src/core/stall-detection/normalize-output.ts',
    handOffBeforeHostLoopDetection:
      'with the default ladder (1 nudge, 1 refusal) the refusal that asks a person is at call 5, which Gemini CLI stops ' +
      'itself first; a run it ends that way fires no AfterAgent, so no hand-off and no outcome record. Fix: on Gemini ask ' +
      'the person with the first refusal (a host default of ladder.refusals 0), at call 4',
  },
});
