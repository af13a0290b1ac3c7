import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    'ai-sdk': 'src/integrations/ai-sdk/index.ts',
    langgraph: 'src/integrations/langgraph/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: {
    entry: {
      index: 'src/index.ts',
      'ai-sdk': 'src/integrations/ai-sdk/index.ts',
      langgraph: 'src/integrations/langgraph/index.ts',
    },
  },
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
