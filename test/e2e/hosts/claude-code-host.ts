import { anthropicMessages } from './anthropic-messages.js';
import { baseEnv, TASK, type HostUnderTest } from './host-under-test.js';

/**
 * Claude Code in print mode (`claude -p`), its stream-json output on (the
 * only output that shows a hook's `systemMessage`), against the scripted
 * Anthropic Messages API. `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC` keeps
 * it off the network; project hooks load in `-p` without a trust prompt.
 */
export const claudeCodeHost: HostUnderTest = {
  name: 'claude-code',
  label: 'Claude Code',
  protocol: anthropicMessages,
  prepare(project, modelUrl, cli) {
    return {
      args: [...cli.args, '-p', TASK, '--allowedTools', 'Bash', '--output-format', 'stream-json', '--verbose'],
      env: {
        ...baseEnv(project, cli),
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: 'sk-e2e-not-a-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    };
  },
};
