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
