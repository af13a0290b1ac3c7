import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readStdin } from '../../src/cli/read-stdin.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const file = (text: string) => {
  const folder = mkdtempSync(join(tmpdir(), 'stopwise-stdin-'));
  folders.push(folder);
  const path = join(folder, 'input.json');
  writeFileSync(path, text);
  return openSync(path, 'r');
};

describe('readStdin', () => {
  it('reads a descriptor to its end with plain reads', async () => {
    const text = `{"session_id":"s","last_assistant_message":"${'é'.repeat(100_000)}"}`;
    const fd = file(text);
    try {
      expect(await readStdin(1024 * 1024, { fd, stream: () => Readable.from([]) })).toBe(text);
    } finally {
      closeSync(fd);
    }
  });

  it('gives up past the limit', async () => {
    const fd = file('x'.repeat(200_000));
    try {
      expect(await readStdin(100_000, { fd, stream: () => Readable.from([]) })).toBeUndefined();
    } finally {
      closeSync(fd);
    }
  });

  it('falls back to the stream for a non-blocking pipe', async () => {
    const child = spawn(process.execPath, ['-e', "setTimeout(() => process.stdout.write('{\"late\":true}'), 200)"], { stdio: ['ignore', 'pipe', 'inherit'] });
    const fd = (child.stdout as unknown as { _handle: { fd: number } })._handle.fd;
    let streamed = false;
    const stream = () => {
      streamed = true;
      return child.stdout;
    };
    expect(await readStdin(1024, { fd, stream })).toBe('{"late":true}');
    expect(streamed).toBe(true);
  });
});
