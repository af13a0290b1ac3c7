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
  // Codex's PostToolUse gives the shell's output as a plain string, with no exit code: stopwise reads the failure from
  // the output (the assertion under the stack frames), so the repeated failure is found at the third call, as on the
  // other hosts.
  guard: { nudgeAfterCall: 3 },
});
