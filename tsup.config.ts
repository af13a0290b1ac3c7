import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    providers: 'src/providers/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', providers: 'src/providers/index.ts' } },
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
