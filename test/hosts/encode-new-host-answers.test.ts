import { describe, expect, it } from 'vitest';
import type { StopHookDecision } from '../../src/hosts/decide-stop-hook.js';
import { encodeCopilotOutput } from '../../src/hosts/encode-copilot-output.js';
import { encodeCopilotToolAnswer } from '../../src/hosts/encode-copilot-tool-answer.js';
import { encodeGeminiOutput } from '../../src/hosts/encode-gemini-output.js';
import { encodeGeminiToolAnswer } from '../../src/hosts/encode-gemini-tool-answer.js';
import { encodeHostOutput } from '../../src/hosts/encode-host-output.js';
import type { ToolGuardAnswer } from '../../src/hosts/tool-event.js';
import { hostOutputProblems, toolOutputProblems } from './host-output-schemas.js';

const block: StopHookDecision = { decision: 'block', reason: '1 test failed: auth > login. Fix it.' };
const blockModelDown: StopHookDecision = { decision: 'block', reason: 'Fix it.', systemMessage: 'stopwise: the decision model could not be asked' };
const handoff: StopHookDecision = { systemMessage: 'stopwise: the tests still fail; a person should look.' };
const NONE: ToolGuardAnswer = { kind: 'none' };
const CONTEXT: ToolGuardAnswer = { kind: 'context', message: '`npm test` failed 3 times the same way; read the failure before running it again.' };
const DENY: ToolGuardAnswer = { kind: 'deny', reason: '`npm test` failed 5 times in a row with the same output since 07:01; fix src/auth.js first.' };

describe('Copilot agentStop answers', () => {
  it('blocks with decision and a non-empty reason, and prints nothing for a hand-off or an allow', () => {
    expect(encodeCopilotOutput(block, { additionalContext: 'Task: fix the login.' })).toEqual({ decision: 'block', reason: `${block?.reason}\n\nTask: fix the login.` });
    expect(encodeCopilotOutput(blockModelDown)).toEqual({ decision: 'block', reason: 'Fix it.' });
    expect(encodeCopilotOutput({ decision: 'block', reason: '  ' })?.reason).toMatch(/\S/);
    expect(encodeCopilotOutput(handoff)).toBeUndefined();
    expect(encodeCopilotOutput(undefined)).toBeUndefined();
    for (const decision of [block, blockModelDown, { decision: 'block', reason: '' } as const]) {
      expect(hostOutputProblems('copilot', encodeHostOutput('copilot', decision))).toEqual([]);
    }
  });

  it('has a schema that refuses what Copilot does not read', () => {
    expect(hostOutputProblems('copilot', { decision: 'block' })).not.toEqual([]);
    expect(hostOutputProblems('copilot', { decision: 'block', reason: 'x', systemMessage: 'y' })).not.toEqual([]);
    expect(hostOutputProblems('copilot', { decision: 'deny', reason: 'x' })).not.toEqual([]);
  });
});

describe('Gemini AfterAgent answers', () => {
  it('denies with a reason, hands off with systemMessage, and prints nothing for an allow', () => {
    expect(encodeGeminiOutput(block)).toEqual({ decision: 'deny', reason: block?.reason });
    expect(encodeGeminiOutput(blockModelDown)).toEqual({ decision: 'deny', reason: 'Fix it.', systemMessage: 'stopwise: the decision model could not be asked' });
    expect(encodeGeminiOutput(handoff)).toEqual({ systemMessage: handoff?.systemMessage });
    expect(encodeGeminiOutput(undefined)).toBeUndefined();
    for (const decision of [block, blockModelDown, handoff]) expect(hostOutputProblems('gemini', encodeHostOutput('gemini', decision))).toEqual([]);
    expect(hostOutputProblems('gemini', { decision: 'deny' })).not.toEqual([]);
    expect(hostOutputProblems('gemini', { decision: 'deny', reason: 'x', followup: 'y' })).not.toEqual([]);
  });
});

describe('Copilot tool answers', () => {
  it('prints nothing for none, on every event: never an allow', () => {
    for (const event of ['preToolUse', 'postToolUse', 'postToolUseFailure'] as const) expect(encodeCopilotToolAnswer(event, NONE)).toEqual({ exitCode: 0 });
  });

  it('denies a preToolUse call with a reason for the agent', () => {
    const output = encodeCopilotToolAnswer('preToolUse', DENY);
    expect(output).toEqual({ exitCode: 0, stdout: { permissionDecision: 'deny', permissionDecisionReason: DENY.kind === 'deny' ? DENY.reason : '' } });
    expect(toolOutputProblems('copilot', 'preToolUse', output.stdout)).toEqual([]);
    expect(toolOutputProblems('copilot', 'preToolUse', { permissionDecision: 'deny' })).not.toEqual([]);
  });

  it('gives context after a failure as exit 2 and stderr, and nowhere else writes JSON for it', () => {
    expect(encodeCopilotToolAnswer('postToolUseFailure', CONTEXT)).toEqual({ exitCode: 2, stderr: CONTEXT.kind === 'context' ? CONTEXT.message : '' });
    expect(encodeCopilotToolAnswer('postToolUseFailure', DENY)).toMatchObject({ exitCode: 2 });
    for (const [event, answer] of [['preToolUse', CONTEXT], ['postToolUse', CONTEXT], ['postToolUse', DENY]] as const) {
      const output = encodeCopilotToolAnswer(event, answer);
      expect(output.exitCode).toBe(0);
      expect(output.stdout).toBeUndefined();
      expect(output.stderr).toMatch(/^stopwise \(not shown to the agent/);
    }
  });
});

describe('Gemini tool answers', () => {
  it('prints nothing for none, denies BeforeTool with a reason, and appends context to an AfterTool result', () => {
    expect(encodeGeminiToolAnswer('BeforeTool', NONE)).toEqual({ exitCode: 0 });
    expect(encodeGeminiToolAnswer('AfterTool', NONE)).toEqual({ exitCode: 0 });
    const deny = encodeGeminiToolAnswer('BeforeTool', DENY);
    expect(deny).toEqual({ exitCode: 0, stdout: { decision: 'deny', reason: DENY.kind === 'deny' ? DENY.reason : '' } });
    const nudge = encodeGeminiToolAnswer('BeforeTool', CONTEXT);
    expect(nudge).toEqual({ exitCode: 0, stdout: { systemMessage: CONTEXT.kind === 'context' ? CONTEXT.message : '' } });
    const after = encodeGeminiToolAnswer('AfterTool', CONTEXT);
    expect(after).toEqual({ exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: CONTEXT.kind === 'context' ? CONTEXT.message : '' } } });
    expect(encodeGeminiToolAnswer('AfterTool', DENY).stdout).not.toHaveProperty('decision');
    expect(toolOutputProblems('gemini', 'BeforeTool', deny.stdout)).toEqual([]);
    expect(toolOutputProblems('gemini', 'BeforeTool', nudge.stdout)).toEqual([]);
    expect(toolOutputProblems('gemini', 'AfterTool', after.stdout)).toEqual([]);
    expect(toolOutputProblems('gemini', 'AfterTool', { hookSpecificOutput: { hookEventName: 'BeforeTool', additionalContext: 'x' } })).not.toEqual([]);
  });
});
