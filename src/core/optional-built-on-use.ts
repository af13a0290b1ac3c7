import * as z from 'zod/mini';

/**
 * An optional key whose schema is built on first use: a value without the key never builds it (building zod schemas
 * costs start-up time, which a hook pays at every run). zod runs an absent key's schema only when
 * it brings a default, and asks the schema whether it does, which would build it: it brings none, and says so itself.
 * Typed as `exactOptional`, as the other optional keys are; it lets an explicit `undefined` through as absent, which
 * JSON cannot hold.
 */
export function optionalBuiltOnUse<T extends z.core.SomeType>(build: () => T): z.ZodMiniExactOptional<z.ZodMiniLazy<T>> {
  const inner = z.lazy(build);
  inner._zod.optin = undefined;
  return z.optional(inner) as unknown as z.ZodMiniExactOptional<z.ZodMiniLazy<T>>;
}
