import { describe, expect, it } from 'vitest';
import * as evidence from '../../src/evidence/index.js';

describe('stopwise/evidence', () => {
  it('exports the readers, the runner, freshness and the checks by name', () => {
    expect(Object.keys(evidence).sort()).toEqual(
      [
        'EvidenceError',
        'checkCommand',
        'checkFilesExist',
        'checkGitClean',
        'evidenceFromChecks',
        'fingerprintWorkingTree',
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
