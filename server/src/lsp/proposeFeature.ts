// "Propose Plan" for every editor: the host profile's providers (names and key variables, never a
// key) and the server command that asks one of them for a plan. The runtime's proposePlan does
// the asking and checking; this only finds the host profile and shapes the answer.

import { openPlanSessionSync } from "@rlm-plan/core/session";
import type { CancellationToken } from "vscode-languageserver";
import type { Feature } from "./feature";
import { HostProvidersRequest, ProposePlanCommand } from "../protocol";

export const proposals: Feature = (ctx) => {
  /** The profile that applies at a document's or folder's URI, loaded (or why not). */
  const profileAt = (uri: string) => {
    const file = ctx.workspace.hostProfileFileAt(uri);
    if (file === undefined) return { file: undefined, loaded: undefined } as const;
    return { file, loaded: ctx.workspace.hosts.resultOf(file) } as const;
  };

  ctx.connection.onRequest(
    HostProvidersRequest.type,
    ctx.guard.request(
      HostProvidersRequest.method,
      ({ uri, hostProfile }) => {
        const { file, loaded } =
          typeof hostProfile === "string" && hostProfile !== ""
            ? ({ file: hostProfile, loaded: ctx.workspace.hosts.resultOf(hostProfile) } as const)
            : profileAt(uri);
        if (file === undefined || !loaded?.ok) return { hostProfile: file ?? null, providers: [] };
        const providers = [...loaded.profile.providers].map(([name, spec]) => ({
          name,
          description: spec.description ?? `${spec.model} at ${spec.baseUrl}`,
          keyVariable: spec.apiKeyEnv ?? null,
        }));
        return { hostProfile: file, providers };
      },
      { hostProfile: null, providers: [] },
    ),
  );

  ctx.command(
    ProposePlanCommand.command,
    async (args, token: CancellationToken): Promise<ProposePlanCommand.Result> => {
      const request = (typeof args[0] === "object" && args[0] !== null ? args[0] : {}) as Partial<
        ProposePlanCommand.Arguments[0]
      >;
      if (typeof request.uri !== "string" || typeof request.goal !== "string" || request.goal.trim() === "")
        return { ok: false, provider: null, error: `${ProposePlanCommand.command} needs [{"uri": ..., "goal": ...}]` };
      const { file, loaded } = profileAt(request.uri);
      if (file === undefined)
        return {
          ok: false,
          provider: null,
          error: "no host profile (rlmplan.host.json) in this folder or a folder above",
        };
      if (!loaded?.ok)
        return { ok: false, provider: null, error: `the host profile ${file} has problems: fix them first` };
      const names = [...loaded.profile.providers.keys()];
      const provider = request.provider ?? (names.length === 1 ? names[0] : undefined);
      if (provider === undefined) {
        const which = names.length === 0 ? "it declares no providers" : `choose one of ${names.join(", ")}`;
        return { ok: false, provider: null, error: `which provider? ${which}` };
      }
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      // The plan session without a plan yet: the editor's profile, the client's keys, the mask.
      const opened = openPlanSessionSync({ hostProfile: file, profile: loaded, clientEnv: stringRecord(request.env) });
      if (!opened.ok) return { ok: false, provider, error: `the host profile ${file} has problems: fix them first` };
      const { session } = opened;
      const asked = await session.propose(request.goal, provider, controller.signal);
      if (!asked.ok) return session.mask.maskValue({ ok: false, provider, error: asked.error });
      const { proposal, reply } = asked;
      const problems = proposal.ok
        ? []
        : proposal.problems.map(({ line, column, code, message }) => ({ line, column, code, message }));
      return session.mask.maskValue({
        ok: true,
        provider,
        planText: proposal.planText ?? null,
        reply: proposal.planText === undefined ? reply : null,
        problems,
      });
    },
  );
};

function stringRecord(value: unknown): Record<string, string> {
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  if (typeof value !== "object" || value === null) return result;
  for (const [name, text] of Object.entries(value)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && typeof text === "string") result[name] = text;
  }
  return result;
}
