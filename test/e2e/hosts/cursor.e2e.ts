import { describe, it } from 'vitest';

const REASON = "Cursor's agent CLI is not published on the npm registry, so the suite has no pinned version to install";

if (process.env.CI !== 'true') console.warn(`host suite: Cursor skipped: ${REASON}`);
describe.skip(`Cursor (skipped: ${REASON})`, () => {
  it('runs', () => undefined);
});
