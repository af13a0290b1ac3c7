// The manual loop lives with runAgentLoop in src/loop; this module keeps its names where the AI SDK entry had them.
export { runManualCompletionLoop } from '../../loop/run-manual-completion-loop.js';
export type { ManualCompletionLoopOptions } from '../../loop/run-manual-completion-loop.js';
