import { decideCompletionAction, describeAction } from 'stopwise';

const action = decideCompletionAction(
  { acceptanceCovered: 0.93, noOpenQuestions: 0.88 }, // P(true) per criterion, from a decision model
  { passed: false, failed: ['auth > rejects expired token'], ran: 42 }, // what the test runner reported
  { step: 4, recentFingerprints: [] }, // where the loop is
);

console.log(action.action, action.reason);
console.log(describeAction(action));
