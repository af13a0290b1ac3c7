import { describe, expect, it } from 'vitest';
import { mapHttpStatus } from '../../../src/decision-model/http/map-http-status.js';

describe('mapHttpStatus', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [408, 'timeout'],
    [422, 'invalid_request'],
    [400, 'invalid_request'],
    [404, 'invalid_request'],
    [429, 'rate_limited'],
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [504, 'server'],
    [529, 'server'],
    [301, 'invalid_response'],
    [302, 'invalid_response'],
    [204, 'invalid_response'],
    [600, 'invalid_response'],
  ])('%i is %s', (status, kind) => {
    expect(mapHttpStatus(status).kind).toBe(kind);
    expect(mapHttpStatus(status).label.length).toBeGreaterThan(0);
  });
});
