import { HOOK_HOSTS, isHookHost, type HookHost } from '../hosts/host.js';
import { CliUsageError } from './cli-io.js';

/** The one positional argument of `stopwise hook` and `stopwise init`: the host; anything else is a usage error. */
export function hostArgument(positionals: readonly string[], help: string): HookHost {
  const [host, ...extra] = positionals;
  if (host === undefined) throw new CliUsageError(`name the host\n\n${help}`);
  if (!isHookHost(host)) throw new CliUsageError(`unknown host "${host}"; expected one of ${HOOK_HOSTS.join(', ')}\n\n${help}`);
  if (extra.length > 0) throw new CliUsageError(`unexpected argument "${extra[0]}"\n\n${help}`);
  return host;
}

/** The optional host of `stopwise doctor`: none, or one known host; anything else is a usage error. */
export function optionalHostArgument(positionals: readonly string[], help: string): HookHost | undefined {
  return positionals.length === 0 ? undefined : hostArgument(positionals, help);
}
