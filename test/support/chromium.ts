// Chromium for the HTML report tests: the file named by STOPWISE_CHROMIUM, then `chromium`, `chromium-browser` or
// `google-chrome` on PATH, then where Debian's chromium package puts it.
import { findOnPath, isExecutableFile, type Found } from './prerequisite.js';

/** How to make Chromium findable, part of every "not found" reason. */
export const CHROMIUM_HINT = 'set STOPWISE_CHROMIUM or put chromium, chromium-browser or google-chrome on PATH; Debian: apt-get install chromium';

/** The names looked up on PATH, in order. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

/** Where Debian's chromium package puts the browser: the last place looked. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Finds the browser to launch. A STOPWISE_CHROMIUM that is not an executable file is reported as such, not passed over. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, fixedPath: string = DEBIAN_CHROMIUM): Found<string> {
  const named = env.STOPWISE_CHROMIUM;
  if (named !== undefined && named !== '') {
    return isExecutableFile(named)
      ? { ok: true, value: named, via: 'STOPWISE_CHROMIUM' }
      : { ok: false, missing: `Chromium not found: STOPWISE_CHROMIUM=${named} is not an executable file` };
  }
  for (const name of CHROMIUM_NAMES) {
    const path = findOnPath(name, env);
    if (path !== undefined) return { ok: true, value: path, via: `${name} on PATH` };
  }
  if (isExecutableFile(fixedPath)) return { ok: true, value: fixedPath, via: fixedPath };
  return { ok: false, missing: `Chromium not found (${CHROMIUM_HINT})` };
}
