import { readFileSync } from 'node:fs';

/** A process that exited but was not reaped (a zombie, in a container whose init does not reap) does not run. */
export function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}
