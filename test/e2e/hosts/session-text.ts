import { findText, type TextPlacement } from './find-text.js';
import type { HostSession } from './host-session.js';

/** The index of the first main request that holds `needle` anywhere in its body (what the model was sent), or -1. */
export function firstRequestWith(session: HostSession, needle: string): number {
  return session.main.findIndex((request) => findText(request.body, needle).length > 0);
}

/** Where `needle` stands in the main request `index`: every field that holds it. */
export function placementsIn(session: HostSession, index: number, needle: string): TextPlacement[] {
  const request = session.main[index];
  return request === undefined ? [] : findText(request.body, needle);
}

/** True when any main request holds `needle`. */
export function modelRead(session: HostSession, needle: string): boolean {
  return firstRequestWith(session, needle) >= 0;
}
