import { defineConfig } from 'vitest/config';

// The host suite (`npm run test:hosts`): stopwise's hooks inside the real coding-agent CLIs, each driven by a scripted
// model on loopback. Not part of `npm test`: its files end in .e2e.ts, which the default configuration does not
// include. One file per host; the files run side by side (two at a time), the scenarios of a host one by one.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/hosts/global-setup.ts'],
    // Each scenario runs its session in a beforeAll, bounded by the session's own timeout (a hung host is killed after
    // 120 s) and `stopwise init`; its checks only read what the session left.
    hookTimeout: 200_000,
    maxWorkers: 2,
  },
});
