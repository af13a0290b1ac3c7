import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    providers: 'src/providers/index.ts',
    cli: 'src/cli/main.ts',
    calibrate: 'src/calibrate/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', providers: 'src/providers/index.ts', calibrate: 'src/calibrate/index.ts' } },
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
