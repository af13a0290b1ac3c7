let issued = 0;

/**
 * A token no other process or call is holding at the same time: the process
 * id, the time, a count and random digits. It names temporary files and lock
 * owners, which need uniqueness, not secrecy, so it does without
 * `node:crypto`, whose loading a tool hook would pay on every tool call.
 */
export function uniqueToken(): string {
  issued += 1;
  const random = Math.floor(Math.random() * 2 ** 48).toString(36);
  return `${process.pid}.${Date.now().toString(36)}.${issued.toString(36)}.${random}`;
}
