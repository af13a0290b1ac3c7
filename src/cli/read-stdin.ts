import { read } from 'node:fs';

/**
 * Reads stdin to its end, or `undefined` past `limit` bytes. Plain reads of
 * fd 0 (no stream set up: a few milliseconds less at every agent turn); a
 * stdin that cannot be read that way (a non-blocking pipe) is read as a
 * stream. `source` names another descriptor and its stream.
 */
export async function readStdin(
  limit: number,
  source: { readonly fd: number; readonly stream: () => NodeJS.ReadableStream } = { fd: 0, stream: () => process.stdin },
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let count: number;
    try {
      count = await new Promise<number>((resolve, reject) => read(source.fd, buffer, 0, buffer.length, null, (error, bytes) => (error ? reject(error) : resolve(bytes))));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK' || code === 'EINVAL' || code === 'EISDIR') return readStream(source.stream(), limit, chunks, size);
      throw error;
    }
    if (count === 0) return Buffer.concat(chunks).toString('utf8');
    size += count;
    if (size > limit) return undefined;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
}

function readStream(stream: NodeJS.ReadableStream, limit: number, chunks: Buffer[], initialSize: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let size = initialSize;
    stream.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        resolve(undefined);
        return;
      }
      chunks.push(bytes);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}
