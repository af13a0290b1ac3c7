import { join } from 'node:path';
import { codexHost } from './codex-host.js';
import { describeHost } from './describe-host.js';

const hooksFile = (dir: string): string => join(dir, '.codex/hooks.json');
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describeHost(codexHost, {
  reasonWrappers: [
    {
      // The number after `stop:` was 2 in every run; what it counts is not documented.
      name: 'a <hook_prompt> user message naming the hooks file (35 characters and its absolute path)',
      before: (project) => new RegExp(`^<hook_prompt hook_run_id="stop:\\d+:${escaped(hooksFile(project.dir))}">$`),
      maxChars: (project) => 35 + hooksFile(project.dir).length,
    },
  ],
  // `codex exec` prints `hook: Stop Blocked` but not the reason, and a hook's systemMessage nowhere, with or without --json.
  person: {},
  // Codex's PostToolUse gives the shell's output as a plain string, with no exit code, and stopwise does not read a
  // failed node:assert as a failure from its last lines (the error-signature problem the Claude Code suite names): the
  // repeated failure reads as a repeated result, found at the fourth call, a call later than on the other hosts.
  guard: { nudgeAfterCall: 4 },
});
