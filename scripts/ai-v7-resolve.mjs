// `node --import ./scripts/ai-v7-resolve.mjs`: every import of `ai` (and `ai/...`), the package's own included, resolves
// to the `ai-v7` alias, AI SDK 7. The docs' AI SDK 7 programs run this way; AI SDK 7 needs Node 22 or later.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(
    "export async function resolve(specifier, context, next) { return specifier === 'ai' || specifier.startsWith('ai/') ? next('ai-v7' + specifier.slice(2), context) : next(specifier, context); }",
  )}`,
);
