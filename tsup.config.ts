import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    hosts: 'src/hosts/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', hosts: 'src/hosts/index.ts' } },
  // zod is bundled (tree-shaken zod/mini): loading it as ~100 separate modules
  // would cost the stop hook more start-up time than Node itself.
  noExternal: ['zod'],
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
