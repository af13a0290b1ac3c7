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
});
