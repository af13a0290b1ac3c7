// Runs before each test file (the configuration's setupFiles). The files a worker runs share its process (isolate:
// false: a process and a fresh module graph for each file cost about a third of the suite's time), so what a file
// changes in the process is put back when the file ends, whatever its tests did or failed to undo: the environment
// variables, fake timers, spies, stubbed variables and globals, and the process's observer of stop decisions. What the
// modules keep between files is what they compute once and reuse (compiled policies, parsed documents).
import { afterAll, vi } from 'vitest';
import { setStopObserver } from '../../src/core/stop-observer.js';

const processEnv = process.env;
const environment = { ...process.env };

afterAll(() => {
  // A test may have put an object of its own in place of process.env.
  if (process.env !== processEnv) process.env = processEnv;
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  for (const name of Object.keys(process.env)) {
    if (!(name in environment)) delete process.env[name];
  }
  Object.assign(process.env, environment);
  setStopObserver(undefined);
});
