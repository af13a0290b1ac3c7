import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 20_000,
    // Many files wait on child processes and loopback servers more than they compute: at least two files at a time
    // keep a two-core machine busy, where the default (one worker less than the cores) runs them one by one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
