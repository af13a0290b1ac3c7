import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiApi } from './gemini-api.js';
import { baseEnv, TASK, type HostUnderTest } from './host-under-test.js';

/**
 * Gemini CLI (`gemini -p`) against the scripted Gemini API: API-key auth
 * selected in the user settings (no update checks, no statistics, no
 * telemetry), the workspace trusted, `--approval-mode yolo` (without it a
 * non-interactive run offers no shell tool), and no re-launch of itself.
 */
export const geminiHost: HostUnderTest = {
  name: 'gemini',
  label: 'Gemini CLI',
  protocol: geminiApi,
  prepare(project, modelUrl, cli) {
    mkdirSync(join(project.home, '.gemini'), { recursive: true });
    writeFileSync(
      join(project.home, '.gemini/settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      }),
    );
    return {
      args: [...cli.args, '-p', TASK, '--approval-mode', 'yolo'],
      env: {
        ...baseEnv(project, cli),
        GEMINI_API_KEY: 'e2e-not-a-key',
        GOOGLE_GEMINI_BASE_URL: modelUrl,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_CLI_NO_RELAUNCH: 'true',
      },
    };
  },
};
