// The constants of `stopwise.config.json`, apart from its zod schema, so that a stop hook reading a plain
// configuration does not load zod (see readPlainStopwiseConfig).

/** The name of the configuration file the hook looks for. */
export const CONFIG_FILE_NAME = 'stopwise.config.json';
/** Default time the test command may take. */
export const DEFAULT_TEST_TIMEOUT_MS = 240_000;
/** Default time one decision-model request may take. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 30_000;
/** Default state folder, relative to the project. */
export const DEFAULT_STATE_DIR = '.stopwise/state';
/** The longest timeout a configuration may set: 2^31 - 1 ms (about 24.8 days), the longest timer Node can run. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
