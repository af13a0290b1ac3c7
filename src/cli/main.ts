#!/usr/bin/env node
// The `stopwise` command. It loads nothing before it knows the command:
// `stopwise hook`, which a coding agent's host runs on every tool call, goes
// straight to its own bundle; every other command loads only its own code.
// On Node 22 and later, the code Node compiles for these files is kept between runs (module.enableCompileCache, in
// the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a hook then starts without compiling its
// bundles again. Node 20 has no such cache.
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const argv = process.argv.slice(2);
if (argv[0] === 'hook') await (await import('./hook-program.js')).runHookProgram(argv.slice(1));
else await (await import('./command-line.js')).runCommandLine(argv);
