import { defineConfig, type Options } from 'tsup';

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
  hosts: 'src/hosts/index.ts',
};

const shared: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  treeshake: true,
};

export default defineConfig([
  // The library: dependencies stay imports of the installed packages, except the few zod/mini functions the
  // finish tool and the hook configuration use, bundled so that `import 'stopwise'` does not load zod (see the
  // core bench). Its clean leaves dist/bin to the build below.
  { ...shared, entry: entries, dts: { entry: entries }, clean: ['!bin/**'], noExternal: ['zod'] },
  // The `stopwise` command is a program: it bundles zod and saxes, which loads faster than resolving them as
  // separate modules (`npm run bench -- hook` compares the two). tap-parser stays a package import: a stop hook
  // whose tests print plain TAP never loads it (see readPlainTap), and its dependencies are CommonJS that call
  // require() for Node built-ins, which a bundle could only serve with a createRequire banner in every chunk.
  {
    ...shared,
    entry: { stopwise: 'src/cli/main.ts' },
    outDir: 'dist/bin',
    noExternal: ['zod', 'saxes'],
    clean: true,
  },
]);
