import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    'system-one': 'src/judge/system-one/index.ts',
    'openai-compatible': 'src/judge/openai-compatible/index.ts',
    testing: 'src/testing/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: {
    entry: {
      index: 'src/index.ts',
      'system-one': 'src/judge/system-one/index.ts',
      'openai-compatible': 'src/judge/openai-compatible/index.ts',
      testing: 'src/testing/index.ts',
    },
  },
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
