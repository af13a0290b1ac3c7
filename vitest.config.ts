import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';

// Two projects. `unit` is the suite on the installed `ai` (AI SDK 6). `ai-v7` runs the files under
// test/integrations/ai-sdk/ai-v7/ with every import of `ai` resolved to AI SDK 7 (the `ai-v7` alias in
// devDependencies), the source included, so stopwise/ai-sdk is tested against both majors; AI SDK 7 needs
// Node 22, and its files skip with a printed reason on older Nodes. The host CLIs' end-to-end suite
// (test/e2e/) has its own configuration and command.
const AI_V7_FILES = 'test/integrations/ai-sdk/ai-v7/**/*.test.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/support/suite-temp-folder.ts'],
    // The files a worker runs share its process and modules: a process and a module graph of its own for each of the
    // two hundred and fifty files took about a third of the suite's time. What a file changes in the process
    // (environment, timers, spies, stubs, the stop observer) is put back when it ends, by this setup file.
    isolate: false,
    setupFiles: ['test/support/file-state.ts'],
    testTimeout: 20_000,
    // Many files wait on child processes and loopback servers more than they compute: one file more than there are
    // cores keeps the machine busy, where vitest's default (one worker less than the cores) leaves it idle.
    maxWorkers: availableParallelism() + 1,
    // The files that build the package, run a server or start many processes first, so that none runs on alone at the
    // end of a run on a fresh clone (vitest's own order goes by file size until it has recorded how long each took).
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [AI_V7_FILES, 'test/e2e/**'],
          // The type tests, checked with the project's options in a program of their own (they and what they import);
          // `npm run typecheck` checks every file of the project.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './test/support/tsconfig.type-tests.json' },
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
