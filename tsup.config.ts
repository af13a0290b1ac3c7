import { defineConfig } from 'tsup';

// One entry per public subpath; each is also listed in package.json "exports".
const entries = {
  index: 'src/index.ts',
  providers: 'src/providers/index.ts',
  calibrate: 'src/calibrate/index.ts',
  evidence: 'src/evidence/index.ts',
  'system-one': 'src/judge/system-one/index.ts',
  'openai-compatible': 'src/judge/openai-compatible/index.ts',
  testing: 'src/testing/index.ts',
  'ai-sdk': 'src/integrations/ai-sdk/index.ts',
  langgraph: 'src/integrations/langgraph/index.ts',
};

export default defineConfig({
  entry: { ...entries, cli: 'src/cli/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: entries },
  splitting: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
});
