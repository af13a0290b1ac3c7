import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    evidence: 'src/evidence/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', evidence: 'src/evidence/index.ts' } },
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
