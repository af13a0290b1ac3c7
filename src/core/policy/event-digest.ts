import type { StopEvent } from './stop-event.js';

/**
 * A 64-bit digest (16 hex characters) of everything in `event` that a rule
 * can read, with `fingerprint` standing for the test result and the output:
 * it tells a replayed event from a different one for the same step. The
 * order of object keys does not count, so a round trip through a store that
 * reorders them gives the same digest. Not a cryptographic hash.
 */
export function eventDigest(event: StopEvent, fingerprint: string): string {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  mixNumber(event.step);
  mixString(fingerprint);
  const tests = event.tests;
  if (tests !== undefined) {
    // passed, ran and the failed names are in the fingerprint; the rest of the evidence is not.
    mix(0x10001);
    mixRecord(tests, FINGERPRINTED_TEST_KEYS);
  }
  mixField(2, event.probabilities);
  mixField(3, event.usage);
  mixField(4, event.elapsedMs);
  mixField(5, event.signal);
  mixField(6, event.verification);
  mixField(7, event.checks);
  mixField(8, event.human);
  mixField(9, event.tree);
  mixField(10, event.steps);
  mixField(11, event.decisionModel);
  mixField(12, event.reentered);
  mixField(13, event.taskType);
  mixField(14, event.provider);
  const a = avalanche(h1, h2);
  return hex16(a, avalanche(h2, a));
}

// Two 32-bit multiply-xor lanes (after cyrb53) fed with code units and the bits of numbers, with no text built on the way.
let h1 = 0;
let h2 = 0;
const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);

function mix(unit: number): void {
  h1 = Math.imul(h1 ^ unit, 2654435761);
  h2 = Math.imul(h2 ^ unit, 1597334677);
}

function mixString(text: string): void {
  mix(0x20000 + (text.length & 0xffff));
  // The lanes in locals while the loop runs: module variables would be loaded and stored for every code unit.
  let a = h1;
  let b = h2;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 2654435761);
    b = Math.imul(b ^ unit, 1597334677);
  }
  h1 = a;
  h2 = b;
}

function mixNumber(value: number): void {
  // -0 and 0 are one value once the event has been through JSON.
  float[0] = value === 0 ? 0 : value;
  mix(0x30000);
  mix(words[0] as number);
  mix(words[1] as number);
}

function mixField(tag: number, value: unknown): void {
  if (value === undefined) return;
  mix(0x10000 + tag);
  mixValue(value);
}

function mixValue(value: unknown): void {
  switch (typeof value) {
    case 'string':
      mixString(value);
      return;
    case 'number':
      mixNumber(value);
      return;
    case 'boolean':
      mix(value ? 0x40001 : 0x40002);
      return;
    case 'object':
      break;
    default:
      mix(0x40003);
      return;
  }
  if (value === null) {
    mix(0x40004);
  } else if (Array.isArray(value)) {
    mix(0x40005);
    for (const item of value) mixValue(item);
    mix(0x40006);
  } else {
    mixRecord(value);
  }
}

const FINGERPRINTED_TEST_KEYS: ReadonlySet<string> = new Set(['passed', 'ran', 'failed']);

/**
 * Each entry hashed on its own and the results added up: the order of the
 * keys does not matter, and nothing is sorted. Keys in `skip` are left out,
 * as if the record did not have them.
 */
function mixRecord(record: object, skip?: ReadonlySet<string>): void {
  const outer1 = h1;
  const outer2 = h2;
  let sum1 = 0;
  let sum2 = 0;
  const keys = Object.keys(record);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if (skip !== undefined && skip.has(key)) continue;
    const item = (record as Record<string, unknown>)[key];
    if (item === undefined) continue;
    h1 = 0x9e3779b9;
    h2 = 0x85ebca6b;
    mixString(key);
    mixValue(item);
    sum1 = (sum1 + avalanche(h1, h2)) | 0;
    sum2 = (sum2 + avalanche(h2, h1)) | 0;
  }
  h1 = outer1;
  h2 = outer2;
  mix(0x40007);
  mix(sum1);
  mix(sum2);
}

function avalanche(a: number, b: number): number {
  return Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
}

const DIGITS = '0123456789abcdef';
const HEX = Array.from(DIGITS, (c) => c.charCodeAt(0));

/** Two 32-bit words as 16 lowercase hex characters, built as one string (joining 2-character pieces allocates each join). */
function hex16(a: number, b: number): string {
  return String.fromCharCode(
    HEX[(a >>> 28) & 15] as number, HEX[(a >>> 24) & 15] as number, HEX[(a >>> 20) & 15] as number, HEX[(a >>> 16) & 15] as number,
    HEX[(a >>> 12) & 15] as number, HEX[(a >>> 8) & 15] as number, HEX[(a >>> 4) & 15] as number, HEX[a & 15] as number,
    HEX[(b >>> 28) & 15] as number, HEX[(b >>> 24) & 15] as number, HEX[(b >>> 20) & 15] as number, HEX[(b >>> 16) & 15] as number,
    HEX[(b >>> 12) & 15] as number, HEX[(b >>> 8) & 15] as number, HEX[(b >>> 4) & 15] as number, HEX[b & 15] as number,
  );
}
