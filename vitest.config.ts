import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects. `unit` is the suite on the installed `ai` (AI SDK 6). `ai-v7` runs the files under
// test/integrations/ai-sdk/ai-v7/ with every import of `ai` resolved to AI SDK 7 (the `ai-v7` alias in
// devDependencies), the source included, so stopwise/ai-sdk is tested against both majors; AI SDK 7 needs
// Node 22, and its files skip with a printed reason on older Nodes. The host CLIs' end-to-end suite
// (test/e2e/) has its own configuration and command.
const AI_V7_FILES = 'test/integrations/ai-sdk/ai-v7/**/*.test.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/support/suite-temp-folder.ts'],
    testTimeout: 20_000,
    // Many files wait on child processes and loopback servers more than they compute: at least two files at a time
    // keep a two-core machine busy, where the default (one worker less than the cores) runs them one by one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [AI_V7_FILES, 'test/e2e/**'],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        resolve: { alias: [{ find: /^ai(\/.*)?$/, replacement: 'ai-v7$1' }] },
        test: { name: 'ai-v7', include: [AI_V7_FILES] },
      },
    ],
  },
});
