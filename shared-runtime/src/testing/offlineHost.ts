// What `test --replay` promises: nothing live. A case that answers from mocks gets them for the
// tools and providers they name; any other the plan calls fails the call instead of running the
// profile's program or reaching its provider, and no MCP server is started to list its tools (a
// pull request's profile names those programs: docs/security.md).

import type { Mocks } from "../host/mocks";
import type { ModelProvider, ToolHandler } from "../run/host";
import type { BuiltHost, HostFactory } from "../run/runContract";

/** `inner` (a host with `mocks` over the profile's) with everything the mocks do not answer refused. */
export function offlineHost(inner: HostFactory, mocks: Mocks): HostFactory {
  return async (needs) => {
    const setup = await inner(needs);
    if (!setup.ok) return setup;
    const built = setup.built;
    const refuse = (what: string) => () => {
      throw new Error(`--replay: ${what} has no mock, and a replayed case calls nothing live`);
    };
    const tools = new Map<string, ToolHandler>();
    for (const name of needs.tools) {
      const mocked = mocks.tools.has(name) ? built.host.tools?.get(name) : undefined;
      tools.set(name, mocked ?? refuse(`tool ${JSON.stringify(name)}`));
    }
    const providers = new Map<string, ModelProvider>();
    for (const name of needs.providers) {
      const mocked = mocks.providers.has(name) ? built.host.providers?.get(name) : undefined;
      providers.set(
        name,
        mocked ?? { description: "not mocked", complete: refuse(`provider ${JSON.stringify(name)}`) },
      );
    }
    return { ok: true, built: withoutLive(built, tools, providers) };
  };
}

/**
 * `built` answering with `tools` and `providers` only, which call nothing real: its MCP listing
 * (which starts the servers) is dropped, and so are its programs that do not resolve and its
 * unset keys, which no call reaches.
 */
export function withoutLive(
  built: BuiltHost,
  tools: ReadonlyMap<string, ToolHandler>,
  providers: ReadonlyMap<string, ModelProvider>,
): BuiltHost {
  const problems = (built.problems ?? []).filter(
    (p) => p.kind !== "tool_unavailable" && p.kind !== "provider_key_missing" && p.kind !== "tool_drift",
  );
  const { preflight: _listing, ...rest } = built;
  return { ...rest, host: { ...built.host, tools, providers }, problems, mocked: true };
}
