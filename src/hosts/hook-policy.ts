import { hookStopPolicy } from '../core/policy/hook-stop-policy.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import type { StopwiseConfig } from './stopwise-config.js';

/**
 * The stop policy a hook decides with: the configuration's stop policy
 * document when it has one, otherwise the hook preset with its numbers and
 * its `maxConsecutiveBlocks`.
 */
export function hookPolicy(config: Pick<StopwiseConfig, 'policy' | 'stopPolicy' | 'maxConsecutiveBlocks'>): StopPolicyDocument {
  return config.stopPolicy ?? hookStopPolicy(config.policy, { maxConsecutiveBlocks: config.maxConsecutiveBlocks });
}
