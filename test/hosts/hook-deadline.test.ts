import { describe, expect, it } from 'vitest';
import { HOOK_DEADLINE_SLACK_MS, HOST_TIMEOUT_MARGIN_MS, hostTimeoutSeconds, MAX_LOCK_WAIT_MS, stopHookDeadlineMs } from '../../src/hosts/hook-deadline.js';
import { DEFAULT_DECISION_MODEL_TIMEOUT_MS, DEFAULT_TEST_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../../src/hosts/config-file.js';


const timeouts = (tests: number, decisionModel: number) => ({ tests: { timeoutMs: tests }, decisionModel: { timeoutMs: decisionModel } });

describe('stopHookDeadlineMs and hostTimeoutSeconds', () => {
  it('gives the hook the tests, two decision-model requests and 20 s, and the host 10 s more, in whole seconds', () => {
    expect([HOOK_DEADLINE_SLACK_MS, HOST_TIMEOUT_MARGIN_MS, MAX_LOCK_WAIT_MS]).toEqual([20_000, 10_000, 20_000]);
    const defaults = timeouts(DEFAULT_TEST_TIMEOUT_MS, DEFAULT_DECISION_MODEL_TIMEOUT_MS);
    expect(stopHookDeadlineMs(defaults)).toBe(320_000);
    expect(hostTimeoutSeconds(defaults)).toBe(330);
    expect(stopHookDeadlineMs(timeouts(60_000, 30_000))).toBe(140_000);
    expect(hostTimeoutSeconds(timeouts(1_500, 250))).toBe(32);
    expect(hostTimeoutSeconds(timeouts(1_501, 250))).toBe(33);
  });

  it('never passes the longest timer Node can run', () => {
    expect(stopHookDeadlineMs(timeouts(MAX_TIMEOUT_MS, MAX_TIMEOUT_MS))).toBe(MAX_TIMEOUT_MS);
  });
});
