import { copilotHost } from './copilot-host.js';
import { describeHost } from './describe-host.js';

const SHELL_RESULT =
  'Copilot CLI reports a failing shell call as postToolUse with resultType "success" and a text ending in ' +
  '`<shellId: N completed with exit code K>`, N one higher at every call: stopwise reads the call as not failed and each ' +
  'result as new (progress), so the tool guard never nudges nor refuses. Fix in src/hosts/copilot.ts: read the exit code ' +
  'from that trailer (error when K is not 0, as gemini.ts reads `Exit Code:`) and leave the trailer out of the output';

describeHost(copilotHost, {
  reasonWrappers: [
    {
      name: 'the date and time of the message, then a blank line, in a user message',
      before: () => /^<current_datetime>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d<\/current_datetime>\n\n$/,
      maxChars: () => 68,
    },
  ],
  // A command hook has no message for the person: stopwise's hand-off goes to stderr, which Copilot CLI shows nowhere
  // (nor logs) when the hook exits 0; a block is not shown either.
  person: {},
  guard: { nudgeAfterCall: 3 },
  knownProblems: { nudge: SHELL_RESULT, refusal: SHELL_RESULT },
});
