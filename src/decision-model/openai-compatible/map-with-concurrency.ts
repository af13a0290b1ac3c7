/**
 * Runs `task` over `items` with at most `limit` in flight. The first failure
 * aborts the signal handed to the others and is the one rejected with; an
 * abort of `signal` reaches every task.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, signal: AbortSignal) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) controller.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index] as T, controller.signal);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          controller.abort(error);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw failure.error;
  return results;
}
