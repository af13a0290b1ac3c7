import { decideCompletionAction } from 'stopwise';

const action = decideCompletionAction(
  { acceptanceCovered: 0.93, noOpenQuestions: 0.88 }, // P(true) per criterion, from a decision model
  { passed: false, failed: ['auth > rejects expired token'], ran: 42 }, // what the test runner reported
  { step: 4, recentFingerprints: [] }, // where the loop is
);

console.log(action.action, action.reason); // handoff_human evidence_contradicts_model
console.log(`rule ${action.rule}: ${JSON.stringify(action.values)}`); // the rule that fired and what it compared
