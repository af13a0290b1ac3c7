import type { DecisionModelErrorKind } from '../decision-model-error.js';

/**
 * The error kind for an HTTP status that is not a success, following the
 * decision-model API's error contract: 401 and 403 are `auth`, 408 `timeout`,
 * 429 `rate_limited`, 5xx and 529 `server`, 400 and 422 and other 4xx
 * `invalid_request`; a redirect (not followed, so the key never travels
 * elsewhere) or anything else is `invalid_response`.
 */
export function mapHttpStatus(status: number): { readonly kind: DecisionModelErrorKind; readonly label: string } {
  switch (status) {
    case 401:
      return { kind: 'auth', label: 'unauthorized: the API key was refused' };
    case 403:
      return { kind: 'auth', label: 'forbidden: the API key may not use this model' };
    case 408:
      return { kind: 'timeout', label: 'request timeout' };
    case 422:
      return { kind: 'invalid_request', label: 'the request failed validation' };
    case 429:
      return { kind: 'rate_limited', label: 'rate limited' };
    case 529:
      return { kind: 'server', label: 'overloaded' };
    default:
      if (status >= 500 && status <= 599) return { kind: 'server', label: 'server error' };
      if (status >= 400 && status <= 499) return { kind: 'invalid_request', label: 'the request was refused' };
      if (status >= 300 && status <= 399) {
        return { kind: 'invalid_response', label: 'a redirect, which is not followed; set baseURL to the final address' };
      }
      return { kind: 'invalid_response', label: 'an unexpected status' };
  }
}
