import { compileDocument, type CompiledPolicy, type ParamRef } from '../../core/policy/compile-stop-policy.js';
import { parseStopPolicy } from '../../core/policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from '../../core/policy/stop-policy-document.js';
import { describeValue } from '../../core/describe-value.js';

/** The ids of the rules of {@link routeStopPolicy}, in order. */
export const ROUTE_STOP_RULE_IDS = ['max_steps', 'verified_done', 'gave_up', 'need_help'] as const;

/**
 * The rules `routeStop` has always applied, as a policy document for
 * `decide`: stop at the step cap (`limit`), then on a `done` that code
 * verified (`success`), on `give_up` (`gave_up`) and on `need_help`
 * (`need_help`); anything else, an unverified `done` included, continues.
 * Events carry `signal` and `verification` (`{ ok }`).
 *
 * @example
 * const policy = routeStopPolicy(20);
 * decide(policy, initialStopState(policy), { step: 1, signal: { kind: 'done', note: '' }, verification: { ok: true } });
 * // decision: { kind: 'stop', exit: 'success', rule: 'verified_done', ... }
 */
export function routeStopPolicy(maxSteps: number): StopPolicyDocument {
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new TypeError(`maxSteps must be a positive integer, got ${describeValue(maxSteps)}`);
  return parseStopPolicy(routeStopRules(maxSteps));
}

// Compiled on first use, its step cap read from the context's params: routeStop reaches any maxSteps without a compile.
let template: CompiledPolicy | undefined;

/** The preset compiled once, with `maxSteps` read from the context's `params`. */
export function routeStopTemplate(): CompiledPolicy {
  template ??= compileDocument(routeStopRules({ param: 'maxSteps' }));
  return template;
}

function routeStopRules(maxSteps: number | ParamRef): StopPolicyDocument {
  return {
    version: STOP_POLICY_VERSION,
    name: 'route-stop',
    rules: [
      { id: 'max_steps', when: { limit: { of: 'steps', max: maxSteps as number } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
      {
        id: 'verified_done',
        when: { all: [{ signal: 'done' }, { verification: 'passed' }] },
        then: { kind: 'stop', exit: 'success', reason: 'verified_done' },
      },
      { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'agent_gave_up' } },
      { id: 'need_help', when: { signal: 'need_help' }, then: { kind: 'stop', exit: 'need_help', reason: 'agent_needs_help' } },
    ],
  };
}
