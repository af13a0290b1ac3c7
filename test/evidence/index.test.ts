import { describe, expect, it } from 'vitest';
import * as evidence from '../../src/evidence/index.js';

describe('stopwise/evidence', () => {
  it('exports the readers, the runner, freshness and the checks by name', () => {
    expect(Object.keys(evidence).sort()).toEqual(
      [
        'EvidenceError',
        'MAX_FAILURE_MESSAGE_LENGTH',
        'MAX_FINGERPRINT_FILES',
        'checkCommand',
        'checkFilesExist',
        'checkGitClean',
        'evidenceFromChecks',
        'fingerprintWorkingTree',
        'isEvidenceError',
        'isEvidenceFresh',
        'mergeEvidence',
        'readJUnitXml',
        'readJestJson',
        'readTap',
        'readTestSummary',
        'readVitestJson',
        'runTests',
      ].sort(),
    );
  });
});
