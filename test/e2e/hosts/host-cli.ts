import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the pinned host CLIs are installed (`scripts/install-host-clis.ts`). */
export const CLIS_DIR = join(import.meta.dirname, 'clis');
const MODULES = join(CLIS_DIR, 'node_modules');

/** The host CLIs the suite runs: the npm package of each (its version is pinned in clis/package.json). */
export type HostCliName = 'claude-code' | 'codex' | 'gemini' | 'copilot';

const PACKAGES: Readonly<Record<HostCliName, string>> = {
  'claude-code': '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
  copilot: '@github/copilot',
};

/** A host CLI ready to run (its command, the arguments before the host's own, its version), or why it cannot run. */
export type HostCli =
  | { readonly ok: true; readonly command: string; readonly args: readonly string[]; readonly version: string; readonly pathDirs: readonly string[] }
  | { readonly ok: false; readonly reason: string };

const CODEX_TARGETS: Readonly<Record<string, string>> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

function installedVersion(name: string): string | undefined {
  const manifest = join(MODULES, name, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version : undefined;
}

/** The pinned version of a host's package. */
export function pinnedVersion(host: HostCliName): string {
  const pins = (JSON.parse(readFileSync(join(CLIS_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  return pins[PACKAGES[host]] ?? 'unpinned';
}

/**
 * The installed CLI of a host, run the way its npm wrapper would run it but
 * without the wrapper's install script: Claude Code's and Copilot CLI's
 * native binaries from their platform packages, Codex's binary under its
 * platform package's `vendor/` (with the folder holding its `rg` on PATH),
 * Gemini CLI's bundle on this Node.
 */
export function locateHostCli(host: HostCliName): HostCli {
  const name = PACKAGES[host];
  const pinned = pinnedVersion(host);
  const version = installedVersion(name);
  const install = 'npm run test:hosts installs it (scripts/install-host-clis.ts)';
  if (version === undefined) return { ok: false, reason: `${name}@${pinned} is not installed in test/e2e/hosts/clis: ${install}` };
  if (version !== pinned) return { ok: false, reason: `${name} ${version} is installed, the suite pins ${pinned}: ${install}` };
  const platform = `${process.platform}-${process.arch}`;
  const missing = (path: string): HostCli => ({ ok: false, reason: `${name}@${pinned} has no binary for ${platform} at ${path.slice(CLIS_DIR.length + 1)}` });
  switch (host) {
    case 'claude-code': {
      const binary = join(MODULES, `${name}-${platform}`, 'claude');
      return existsSync(binary) ? { ok: true, command: binary, args: [], version, pathDirs: [] } : missing(binary);
    }
    case 'copilot': {
      const binary = join(MODULES, `${name}-${platform}`, 'copilot');
      return existsSync(binary) ? { ok: true, command: binary, args: [], version, pathDirs: [] } : missing(binary);
    }
    case 'codex': {
      const vendor = join(MODULES, `${name}-${platform}`, 'vendor', CODEX_TARGETS[platform] ?? 'unsupported');
      const binary = join(vendor, 'bin', 'codex');
      return existsSync(binary) ? { ok: true, command: binary, args: [], version, pathDirs: [join(vendor, 'codex-path')] } : missing(binary);
    }
    case 'gemini': {
      const bundle = join(MODULES, name, 'bundle', 'gemini.js');
      return existsSync(bundle) ? { ok: true, command: process.execPath, args: [bundle], version, pathDirs: [] } : missing(bundle);
    }
  }
}

/** A folder for Copilot CLI's unpacked package (it unpacks about 235 MB there at its first start): kept with the install, shared by every run. */
export const COPILOT_CACHE_DIR = join(MODULES, '.copilot-cache');
