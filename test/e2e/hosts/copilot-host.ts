import { anthropicMessages } from './anthropic-messages.js';
import { COPILOT_CACHE_DIR } from './host-cli.js';
import { baseEnv, TASK, type HostUnderTest } from './host-under-test.js';

/**
 * Copilot CLI (`copilot -p`) offline, without a GitHub account, with a model
 * of your own (`COPILOT_PROVIDER_TYPE=anthropic`) that is the scripted
 * Anthropic Messages API; `--trust-folder` loads the project's
 * `.github/hooks/`. Its unpacked package is shared by every run.
 */
export const copilotHost: HostUnderTest = {
  name: 'copilot',
  label: 'Copilot CLI',
  protocol: anthropicMessages,
  prepare(project, modelUrl, cli) {
    return {
      args: [...cli.args, '-p', TASK, '--allow-all-tools', '--trust-folder', '--no-auto-update'],
      env: {
        ...baseEnv(project, cli),
        XDG_CACHE_HOME: COPILOT_CACHE_DIR,
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_TYPE: 'anthropic',
        COPILOT_PROVIDER_BASE_URL: modelUrl,
        COPILOT_PROVIDER_API_KEY: 'e2e-not-a-key',
        COPILOT_MODEL: 'claude-sonnet-4.5',
      },
    };
  },
};
