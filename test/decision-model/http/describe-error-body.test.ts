import { describe, expect, it } from 'vitest';
import { describeErrorBody } from '../../../src/decision-model/http/describe-error-body.js';

describe('describeErrorBody', () => {
  it('picks the detail, the error message or the message of a JSON body', () => {
    expect(describeErrorBody('{"detail":[{"msg":"field required"}]}', [])).toBe('[{"msg":"field required"}]');
    expect(describeErrorBody('{"error":{"message":"model not found","type":"x"}}', [])).toBe('model not found');
    expect(describeErrorBody('{"error":"nope"}', [])).toBe('nope');
    expect(describeErrorBody('{"message":"busy"}', [])).toBe('busy');
  });

  it('names an HTML page instead of quoting it', () => {
    expect(describeErrorBody('  <!DOCTYPE html><html><body>502</body></html>', [])).toBe('the server sent an HTML page');
  });

  it('flattens and shortens plain text', () => {
    expect(describeErrorBody('upstream\n\n  timed out', [])).toBe('upstream timed out');
    const long = describeErrorBody('y'.repeat(1000), []);
    expect(long).toHaveLength(300);
    expect(long.endsWith('...')).toBe(true);
    expect(describeErrorBody('   ', [])).toBe('');
  });

  it('redacts secrets', () => {
    expect(describeErrorBody('{"detail":"bad key sk-123456"}', ['sk-123456'])).toBe('bad key [redacted]');
  });
});
