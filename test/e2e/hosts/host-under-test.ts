import type { HostCliName, HostCli } from './host-cli.js';
import type { ModelProtocol } from './model-protocol.js';
import type { ScratchProject } from './scratch-project.js';

/** The task every run is given. */
export const TASK = 'Run the tests and fix what fails.';

/** How to start one non-interactive session of a host on a project. */
export interface HostInvocation {
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * One real host CLI as the suite drives it: the model protocol it speaks, and
 * what it needs besides what `stopwise init` writes (an API key for the
 * scripted model, its user settings, the trust a non-interactive run needs).
 */
export interface HostUnderTest {
  readonly name: HostCliName;
  readonly label: string;
  readonly protocol: ModelProtocol;
  /** Writes what the host reads from its home folder and returns how to start it against the model at `modelUrl`. */
  prepare(project: ScratchProject, modelUrl: string, cli: Extract<HostCli, { ok: true }>): HostInvocation;
}

/** The base environment of every host: PATH (with the folders the CLI needs first), a home and a temporary folder of the run's own, nothing else of this process. */
export function baseEnv(project: ScratchProject, cli: Extract<HostCli, { ok: true }>): NodeJS.ProcessEnv {
  return { PATH: [...cli.pathDirs, process.env.PATH ?? ''].join(':'), HOME: project.home, TMPDIR: project.tmp, LANG: 'C.UTF-8', TERM: 'dumb' };
}
