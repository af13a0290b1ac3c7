// The code blocks of the README and docs/: found, classified and written out as programs.
//
// A block fenced as ts / typescript / js / javascript is a complete program unless its first line is
// `// fragment`. Complete programs import the package by its name ("stopwise"), which resolves to the
// built package through the package's own "exports" (Node's self-reference), so they run as a user's
// code would. A `json` block must parse. A fenced `text output` block right after a program is what
// the program must print. A program whose first line starts `// AI SDK 7` uses AI SDK 7: it is checked
// against the `ai-v7` alias (types and modules) in place of the installed `ai`, and runs on Node 22 or
// later only. The test suite runs each program compiled to JavaScript beside it, as tsx would compile it,
// on plain Node.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

/** One fenced block of a markdown file. */
export interface DocBlock {
  /** The markdown file, relative to the project root. */
  readonly file: string;
  /** The line of the opening fence, from 1. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  readonly fragment: boolean;
  /** A program for AI SDK 7 (its first line starts `// AI SDK 7`). */
  readonly aiSdk7: boolean;
  /** What the program must print, when a `text output` block follows it. */
  readonly output?: string;
}

const PROGRAM_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);

/** The markdown files users read: the README and every page under docs/, except the generated API reference. */
export function docFiles(root: string): string[] {
  const files = ['README.md'];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(resolve(root, dir)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (path === join('docs', 'api')) continue;
      if (name.endsWith('.md')) files.push(path);
      else if (!name.includes('.')) walk(path);
    }
  };
  walk('docs');
  return files;
}

/** Every fenced block of `text` (the markdown of `file`), with the output block that follows a program attached to it. */
export function parseDocBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const raw: { line: number; info: string; code: string }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[index] ?? '');
    if (open === null) continue;
    const fence = open[2] ?? '```';
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end] ?? '').trimStart().startsWith(fence)) {
      body.push(lines[end] ?? '');
      end += 1;
    }
    raw.push({ line: index + 1, info: (open[3] ?? '').trim(), code: body.join('\n') });
    index = end;
  }
  const blocks: DocBlock[] = [];
  for (let index = 0; index < raw.length; index += 1) {
    const block = raw[index];
    if (block === undefined) continue;
    const [lang = '', ...flags] = block.info.split(/\s+/);
    if (lang === 'text' && flags.includes('output')) continue;
    const next = raw[index + 1];
    const output = next !== undefined && /^text\s+output\b/.test(next.info) ? next.code : undefined;
    blocks.push({
      file,
      line: block.line,
      lang: lang.toLowerCase(),
      code: block.code,
      fragment: /^\s*(\/\/|#)\s*fragment\b/.test(block.code.split('\n')[0] ?? ''),
      aiSdk7: /^\s*\/\/\s*AI SDK 7\b/.test(block.code.split('\n')[0] ?? ''),
      ...(output === undefined ? {} : { output }),
    });
  }
  return blocks;
}

/** True for a block that is a program to type-check and run. */
export function isProgram(block: DocBlock): boolean {
  return PROGRAM_LANGS.has(block.lang) && !block.fragment;
}

/** A program block written out as a file, and where it came from. */
export interface WrittenProgram {
  readonly block: DocBlock;
  readonly path: string;
}

/**
 * Writes the program blocks of every doc file into `outDir` (inside the project, so that "stopwise"
 * resolves to the package itself), one file per block named after its source and line.
 */
export function writePrograms(root: string, outDir: string): WrittenProgram[] {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const written: WrittenProgram[] = [];
  for (const file of docFiles(root)) {
    for (const block of parseDocBlocks(file, readFileSync(resolve(root, file), 'utf8'))) {
      if (!isProgram(block)) continue;
      const extension = block.lang.startsWith('t') ? 'ts' : 'mjs';
      const name = `${file.replace(/[\\/]/g, '__').replace(/\.md$/, '')}-L${block.line}.${extension}`;
      const path = join(outDir, name);
      writeFileSync(path, `${block.code}\n`);
      written.push({ block, path: relative(root, path) });
    }
  }
  return written;
}

/** The first Node major AI SDK 7 runs on. */
export const AI_SDK_7_NODE = 22;

/** A written program and the JavaScript file Node runs: the program itself for a js block, its compiled form for a ts one. */
export interface RunnableProgram extends WrittenProgram {
  readonly runnable: string;
}

/**
 * Compiles the TypeScript programs to JavaScript files beside them (`.mjs`, imports left as they are, as tsx compiles
 * a file it runs), so that each program starts on plain Node instead of on a TypeScript loader. One esbuild call for
 * all of them; the paths are relative to `root`, like the written ones.
 */
export async function compilePrograms(root: string, programs: readonly WrittenProgram[]): Promise<RunnableProgram[]> {
  const typescript = programs.filter((written) => written.path.endsWith('.ts'));
  const runnable = (path: string): string => (path.endsWith('.ts') ? path.replace(/\.ts$/, '.mjs') : path);
  if (typescript.length > 0) {
    await build({
      entryPoints: Object.fromEntries(typescript.map((written) => [runnable(written.path).replace(/\.mjs$/, ''), join(root, written.path)])),
      outdir: root,
      outExtension: { '.js': '.mjs' },
      bundle: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
  }
  return programs.map((written) => ({ ...written, runnable: runnable(written.path) }));
}

/** The Node arguments that run a compiled program: AI SDK 7 programs resolve `ai` to the `ai-v7` alias, for the package too. */
export function programNodeArgs(root: string, program: RunnableProgram): string[] {
  return [...(program.block.aiSdk7 ? ['--import', join(root, 'scripts/ai-v7-resolve.mjs')] : []), program.runnable];
}

/**
 * Type-checks the written programs with the project's strict options against the built package: the AI SDK 7
 * programs in a program of their own, where `ai` and its subpaths are the `ai-v7` alias's declarations. Returns one
 * line per problem, `file:line: TSnnnn: message`.
 */
export function typeCheckPrograms(root: string, programs: readonly WrittenProgram[]): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (parsed === undefined) throw new Error('tsconfig.json could not be read');
  const base: ts.CompilerOptions = { ...parsed.options, strict: true, noEmit: true, allowJs: true, checkJs: false, noUnusedLocals: false };
  const v7 = join(root, 'node_modules/ai-v7/dist');
  const paths = { ai: [join(v7, 'index.d.ts')], 'ai/test': [join(v7, 'test/index.d.ts')], 'ai/internal': [join(v7, 'internal/index.d.ts')] };
  const groups: [readonly WrittenProgram[], ts.CompilerOptions][] = [
    [programs.filter((written) => !written.block.aiSdk7), base],
    [programs.filter((written) => written.block.aiSdk7), { ...base, paths }],
  ];
  // The groups differ only in where `ai` resolves: the declarations both read (Node's, the package's, the other
  // dependencies') are parsed once and shared.
  const parsedFiles = new Map<string, ts.SourceFile>();
  const problems: string[] = [];
  for (const [group, options] of groups) {
    if (group.length === 0) continue;
    const host = ts.createCompilerHost(options);
    const parse = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, ...rest) => {
      const key = `${JSON.stringify(languageVersion)}:${fileName}`;
      const known = parsedFiles.get(key);
      if (known !== undefined) return known;
      const parsed = parse(fileName, languageVersion, ...rest);
      if (parsed !== undefined) parsedFiles.set(key, parsed);
      return parsed;
    };
    const program = ts.createProgram(group.map((written) => join(root, written.path)), options, host);
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const written = group.find((candidate) => diagnostic.file !== undefined && resolve(diagnostic.file.fileName) === join(root, candidate.path));
      const position = diagnostic.file !== undefined && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
      const where = written === undefined ? (diagnostic.file?.fileName ?? '?') : `${written.block.file}:${written.block.line + 1 + (position?.line ?? 0)}`;
      problems.push(`${where}: TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
    }
  }
  return problems;
}
