#!/usr/bin/env node
// The `stopwise` command. It loads nothing before it knows the command:
// `stopwise hook`, which a coding agent's host runs on every tool call, goes
// straight to its own bundle; every other command loads only its own code.
const argv = process.argv.slice(2);
if (argv[0] === 'hook') await (await import('./hook-program.js')).runHookProgram(argv.slice(1));
else await (await import('./command-line.js')).runCommandLine(argv);
