import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { claudeCodeHost } from './claude-code-host.js';
import { describeHost, distinctTexts } from './describe-host.js';
import { scenario, verify } from './host-scenario.js';
import { editConfig, FIX_COMMAND, type OutcomeLine, type ScratchProject } from './scratch-project.js';
import { firstRequestWith, placementsIn } from './session-text.js';
import { FAILED_TEST_REASON, HANDED_OFF, NUDGE, REFUSED } from './stopwise-texts.js';

/** The longest hook command a host may quote to the model in front of every block's reason. */
const MAX_QUOTED_COMMAND = 120;

function settings(project: ScratchProject): { hooks: Record<string, { hooks: { command: string }[] }[]> } {
  return JSON.parse(readFileSync(join(project.dir, '.claude/settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
}

/** The stop command `stopwise init claude-code` installed, as Claude Code quotes it. */
const stopCommand = (project: ScratchProject): string => settings(project).hooks.Stop?.[0]?.hooks[0]?.command ?? '';

describeHost(
  claudeCodeHost,
  {
    // With the default model; older models (claude-sonnet-4-5, claude-haiku-4-5) get one user message with both blocks.
    reasonWrappers: [
      {
        name: 'a <system-reminder> in a user message, the same text at every block',
        before: () => /^<system-reminder>\nThe text below is the output of a hook [^]*\nStop hook feedback:\n$/,
        maxChars: () => 440,
      },
      {
        name: `'Stop hook blocking error from command: "<the installed command>": ' in a system message, the command at most ${MAX_QUOTED_COMMAND} characters`,
        before: (project) => {
          expect(stopCommand(project).length).toBeLessThanOrEqual(MAX_QUOTED_COMMAND);
          return `Stop hook blocking error from command: "${stopCommand(project)}": `;
        },
        maxChars: (project) => `Stop hook blocking error from command: "${stopCommand(project)}": `.length,
      },
    ],
    // Print mode shows a hook's systemMessage only in its stream-json output (nothing in text output).
    person: { block: (firstLine) => `Stop hook feedback:\\n${firstLine}`, line: (text) => `Stop says: ${text}` },
    guard: { nudgeAfterCall: 3 },
  },
  (cli) => {
    scenario(
      claudeCodeHost,
      cli,
      "Claude Code's own block cap (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=2) below maxConsecutiveBlocks",
      {
        script: distinctTexts(8),
        env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' },
        prepare: (project) => editConfig(project, (config) => ({ ...config, maxConsecutiveBlocks: 5 })),
      },
      (run) => {
        verify("hands off at the third stop, before Claude Code's cap ends the run unannounced, and says why", () => {
          const { session } = run();
          expect(session.main).toHaveLength(3);
          expect(run().outcomes).toHaveLength(1);
          const { outcome } = run().outcomes[0] as OutcomeLine;
          expect(outcome.decision?.reason).toBe('host_block_cap');
          const line = 'stopwise: Claude Code ends the run after 2 blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP), so stopwise hands the run to you instead';
          expect(outcome.question).toContain(line);
          expect(session.personOutput).toContain(`Stop says: ${line}`);
        });
      },
    );

    scenario(
      claudeCodeHost,
      cli,
      'a subagent stop (SubagentStop registered by hand, as docs/hosts.md lists it; init registers Stop only)',
      {
        script: [
          { tool: 'Agent', input: { description: 'Fix the failing test', prompt: 'Make the tests pass.', subagent_type: 'general-purpose', run_in_background: false } },
          { text: 'Subagent: I looked, all is well.' },
          { text: 'Subagent: still well.' },
          { text: 'Main agent: done.' },
          { shell: FIX_COMMAND },
          { text: 'Main agent: fixed.' },
        ],
        prepare: (project) => {
          const value = settings(project);
          value.hooks.SubagentStop = value.hooks.Stop ?? [];
          writeFileSync(join(project.dir, '.claude/settings.json'), JSON.stringify(value, null, 2));
        },
      },
      (run) => {
        verify("blocks the subagent's stop: the subagent, not the main agent, reads the failing test", () => {
          const { session } = run();
          expect(firstRequestWith(session, FAILED_TEST_REASON)).toBe(2);
          expect(JSON.stringify((session.main[2]?.body as { system?: unknown }).system)).toContain('cc_is_subagent=true');
          expect(placementsIn(session, 3, FAILED_TEST_REASON)).toEqual([]);
        });
        verify("keeps the subagent's stops apart from the main agent's: the subagent is handed off, the main agent blocked once and let through", () => {
          const { session } = run();
          expect(session.run.code).toBe(0);
          expect(placementsIn(session, 4, FAILED_TEST_REASON).length).toBeGreaterThan(0);
          expect(run().states).toHaveLength(2);
          expect(run().outcomes.map(({ outcome }) => [outcome.exit, outcome.decision?.reason])).toEqual([
            ['need_help', 'tests_failed_after_block'],
            ['success', 'passed_after_block'],
          ]);
        });
        verify("tells nobody of the subagent's hand-off: Claude Code shows a SubagentStop systemMessage neither to the person nor to the main agent", () => {
          const { session } = run();
          expect(session.personOutput).not.toContain(HANDED_OFF);
          expect(firstRequestWith(session, HANDED_OFF)).toBe(-1);
        });
      },
    );

    scenario(
      claudeCodeHost,
      cli,
      'a repeated `node --test` (the TAP output an agent running the tests gets)',
      { script: [...Array.from({ length: 5 }, () => ({ shell: 'node --test' })), { text: 'I am stuck.' }, { text: 'Still stuck.' }] },
      (run) => {
        verify('nudges with the result of call 3', () => {
          expect(firstRequestWith(run().session, NUDGE)).toBe(3);
        });
        verify('refuses call 4', () => {
          expect(firstRequestWith(run().session, REFUSED)).toBe(4);
        });
      },
    );
  },
);
