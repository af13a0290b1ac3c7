import { rmSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Options } from 'tsup';
import ts from 'typescript';

// One entry per public subpath; each is also listed in package.json "exports".
const entries = {
  index: 'src/index.ts',
  providers: 'src/providers/index.ts',
  calibrate: 'src/calibrate/index.ts',
  evidence: 'src/evidence/index.ts',
  'system-one': 'src/decision-model/system-one/index.ts',
  'openai-compatible': 'src/decision-model/openai-compatible/index.ts',
  testing: 'src/testing/index.ts',
  'ai-sdk': 'src/integrations/ai-sdk/index.ts',
  langgraph: 'src/integrations/langgraph/index.ts',
  hosts: 'src/hosts/index.ts',
  otel: 'src/otel/index.ts',
  report: 'src/report/index.ts',
  stall: 'src/stall/index.ts',
};

// Outside node_modules: the bundler of declarations would take files there for a dependency's and leave them out.
const TYPES_DIR = '.types';

/**
 * Emits the declarations of every entry, and of what they import, with one TypeScript program, failing on a type
 * error as tsup's own declaration step does. tsup then only bundles these files: its own step emits and checks
 * module by module through rollup, about three times the CPU for the same declarations.
 */
function emitDeclarations(): Record<string, string> {
  const parsed = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (parsed === undefined) throw new Error('tsconfig.json could not be read');
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true, declarationMap: false, rootDir: 'src', outDir: TYPES_DIR };
  rmSync(TYPES_DIR, { recursive: true, force: true });
  const program = ts.createProgram(Object.values(entries), options);
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
    throw new Error(`the declarations could not be emitted:\n${ts.formatDiagnosticsWithColorAndContext(diagnostics, host)}`);
  }
  return Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, file.replace(/^src\//, `${TYPES_DIR}/`).replace(/\.ts$/, '.d.ts')]));
}

const shared: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  treeshake: true,
};

/** `stopwise hook` is built on its own into dist/bin/hook/, which the command's build imports by its file name. */
const HOOK_DIR = 'hook';
const HOOK_BUNDLE = `./${HOOK_DIR}/index.js`;
/** The stop hook's build, in a folder of the hook's: the tool event's file imports it by its file names. */
const STOP_DIR = 'stop';

/** Both hook builds: Node reads and parses every byte a hook run loads, so they are minified (names kept). */
const hookBuild: Options = { ...shared, minifyWhitespace: true, minifySyntax: true };

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/** The stop hook's build: its entry, and each module a stop or a tool event imports only when needed (`import()`). */
const STOP_FILES: Record<string, string> = {
  'stop-hook': 'src/hosts/stop-hook.ts',
  'stopwise-config': 'src/hosts/stopwise-config.ts',
  'hook-outcome-record': 'src/hosts/hook-outcome-record.ts',
  'read-junit-xml': 'src/evidence/read-junit-xml.ts',
  'read-tap': 'src/evidence/read-tap.ts',
  'check-completion': 'src/decision-model/check-completion.ts',
  'create-configured-client': 'src/decision-model/create-configured-client.ts',
  'hosted-client': 'src/decision-model/system-one/hosted-client.ts',
  'logprob-client': 'src/decision-model/openai-compatible/logprob-client.ts',
};

/**
 * For the two hook builds, which split no chunks: makes each `import()` of a module that is an entry of `files` an
 * import of that entry's built file in the folder `dir` (relative to the importing file), so that it stays a file
 * loaded when needed. Any other `import()` of a module of the project fails the build: it would be bundled into the
 * file that imports it.
 */
function importOwnFiles(files: Record<string, string>, dir: string): EsbuildPlugin {
  const byPath = new Map(Object.entries(files).map(([name, file]) => [path.resolve(file), name]));
  return {
    name: 'import-own-files',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        const name = byPath.get(target);
        if (name === undefined) return { errors: [{ text: `${args.path} is imported with import() from ${args.importer}: make it an entry of STOP_FILES` }] };
        return { path: `${dir}${name}.js`, external: true };
      });
    },
  };
}

/** Makes the import of `specifier` from the source file `importer` an import of the built file `path` instead. */
function importBuiltFile(specifier: string, importer: string, path: string): EsbuildPlugin {
  const filter = new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
  return {
    name: `import-built-${path}`,
    setup(build) {
      build.onResolve({ filter }, (args) => (args.importer.endsWith(importer) ? { path, external: true } : undefined));
    },
  };
}

export default defineConfig([
  // The library: dependencies stay imports of the installed packages, except the few zod/mini functions the
  // finish tool and the hook configuration use, bundled so that `import 'stopwise'` does not load zod (see the
  // core bench). Its clean leaves dist/bin to the build below.
  { ...shared, entry: entries, dts: { entry: emitDeclarations() }, clean: ['!bin/**'], noExternal: ['zod'] },
  // The `stopwise` command is a program: it bundles zod and saxes, which loads faster than resolving them as
  // separate modules (`npm run bench -- hook` compares the two). tap-parser stays a package import: a stop hook
  // whose tests print plain TAP never loads it (see readPlainTap), and its dependencies are CommonJS that call
  // require() for Node built-ins, which a bundle could only serve with a createRequire banner in every chunk.
  {
    ...shared,
    // The report's worker thread is loaded by its file name, beside the chunk that starts it.
    entry: {
      stopwise: 'src/cli/main.ts',
      'read-outcomes-worker': 'src/report/read-outcomes-worker.ts',
    },
    outDir: 'dist/bin',
    noExternal: ['zod', 'saxes'],
    // the hook's folder is the next build's, which runs beside this one
    clean: [`!${HOOK_DIR}/**`],
    esbuildPlugins: [importBuiltFile('./hook-program.js', 'src/cli/main.ts', HOOK_BUNDLE)],
  },
  // A coding agent's host runs `stopwise hook` on every tool call: the hook program (src/cli/main.ts hands it the
  // command line before it loads anything else) is a build of its own, sharing nothing with the command's chunks,
  // because each file Node resolves, reads and compiles costs start-up time there (`npm run bench -- hook`). The tool
  // event path is one file that loads no schema; the stop hook and the configuration's schema (with zod) are built
  // beside it (next build), loaded by a stop, or by a tool event whose configuration has tool-guard keys to check (and
  // the outcome record, by a tool event the guard hands off).
  {
    ...hookBuild,
    entry: { index: 'src/cli/hook-program.ts' },
    outDir: `dist/bin/${HOOK_DIR}`,
    splitting: false,
    noExternal: ['zod'],
    clean: [`!${STOP_DIR}/**`],
    esbuildPlugins: [importOwnFiles(STOP_FILES, `./${STOP_DIR}/`)],
  },
  // What a stop loads before it answers is one file, stop-hook.js: Node resolves, reads and links each file of a
  // module graph on its own, which split chunks made eleven times. Each module loaded only by some stops or tool
  // events (a report reader, the decision model's client, the outcome record, the configuration's schema for a tool
  // event) is a file of its own beside it, imported by its file name.
  {
    ...hookBuild,
    entry: STOP_FILES,
    outDir: `dist/bin/${HOOK_DIR}/${STOP_DIR}`,
    splitting: false,
    noExternal: ['zod', 'saxes'],
    clean: true,
    esbuildPlugins: [importOwnFiles(STOP_FILES, './')],
  },
]);
