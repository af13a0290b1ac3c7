// describeRetry lives with the completion loop in src/loop; this module keeps its names where the AI SDK entry had them.
export { describeRetry } from '../../loop/describe-retry.js';
export type { RetryDetails } from '../../loop/describe-retry.js';
