import { TEST_NAME } from './scratch-project.js';

// What stopwise says, as the suite looks for it in what the model read and the person saw: the start of each
// message, so that its wording may grow without breaking the suite.

/** The first line of a block for the failing test. */
export const FAILED_TEST_REASON = `1 test failed: ${TEST_NAME}. Fix it and run the tests again before you finish.`;
/** The failure message the block carries for that test (node's assertion message, on one line). */
export const FAILED_TEST_MESSAGE = `- ${TEST_NAME}: Expected values to be strictly equal: -1 !== 5`;
/** The block when the suite ran no test. */
export const NO_TESTS_REASON = 'No tests ran: there is no test result for this step.';
/** The hand-off after a block that did not help. */
export const HANDED_OFF = 'stopwise: the agent was let stop without the checks met: a person should look';
/** The tool guard's nudge (the context passed with a call's result). */
export const NUDGE = 'If you run it again unchanged it will be refused';
/** The tool guard's refusal. */
export const REFUSED = 'stopwise refused this call (';
/** The refusal that also asks a person. */
export const PERSON_ASKED = 'A person has been asked to look: stop here, end your turn and say what you need.';
/** The hand-off the tool guard leaves for the next stop. */
export const GUARD_HANDED_OFF = 'stopwise: the agent needs a person. The agent keeps repeating';
/** The hand-off when the configuration is broken. */
export const CONFIG_INVALID = 'stopwise: the configuration is invalid (';
