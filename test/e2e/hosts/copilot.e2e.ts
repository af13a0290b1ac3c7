import { copilotHost } from './copilot-host.js';
import { describeHost } from './describe-host.js';

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
});
