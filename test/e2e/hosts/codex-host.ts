import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, TASK, type HostUnderTest } from './host-under-test.js';
import { openaiResponses } from './openai-responses.js';

/**
 * Codex (`codex exec`) against the scripted Responses API, through a model
 * provider of its own in `$CODEX_HOME/config.toml`: the project trusted (else
 * its `.codex/` is ignored), plugins off (else it looks up github.com), no
 * retries, and `--dangerously-bypass-hook-trust` standing for the person who
 * reviews and trusts the project's hooks once.
 */
export const codexHost: HostUnderTest = {
  name: 'codex',
  label: 'Codex',
  protocol: openaiResponses,
  prepare(project, modelUrl, cli) {
    const codexHome = join(project.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-e2e"',
        'model_provider = "e2e"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        'check_for_update_on_startup = false',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[features]',
        'plugins = false',
        '',
        '[model_providers.e2e]',
        'name = "e2e"',
        `base_url = "${modelUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "E2E_MODEL_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
        `[projects.${JSON.stringify(project.dir)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    return {
      args: [...cli.args, 'exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', TASK],
      env: { ...baseEnv(project, cli), CODEX_HOME: codexHome, E2E_MODEL_KEY: 'e2e-not-a-key' },
    };
  },
};
