// "Update Lock": the server's command behind the host profile's lock diagnostics
// (service/lockDiagnostics.ts). It does what `rlm-plan lock --update` does, through the profile's
// session, for the profile as the editor has it, then checks the profile again so its drift
// diagnostics go. Only ever run by the user's own act: a code action's command, never on its own.

import { CodeActionKind, type CodeAction, type Diagnostic } from "vscode-languageserver";
import { openPlanSessionSync, type PinOutcome } from "@rlm-plan/core/session";
import { UpdateLockClientCommand, UpdateLockCommand } from "../protocol";
import { lockActions } from "../service/lockDiagnostics";
import type { Feature, FeatureContext } from "./feature";
import { uriToPath } from "./hostProfiles";

/** The lock's quick fixes for a host profile document (none for other documents). */
export function hostProfileCodeActions(
  ctx: FeatureContext,
  uri: string,
  diagnostics: readonly Diagnostic[],
  only: readonly string[] | undefined,
): CodeAction[] {
  if (only && !only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
  const file = uriToPath(uri);
  if (file === undefined || !ctx.workspace.hosts.isProfile(file)) return [];
  // VS Code's own command asks for trust and confirmation first; other clients run the server's.
  const command = ctx.workspace.clientRunsPlans ? UpdateLockClientCommand.command : UpdateLockCommand.command;
  return lockActions(uri, diagnostics, command);
}

export const lockUpdates: Feature = (ctx) => {
  ctx.command(UpdateLockCommand.command, async (args): Promise<UpdateLockCommand.Result> => {
    const given = args[0] as { uri?: unknown } | string | undefined;
    const uri = typeof given === "string" ? given : typeof given?.uri === "string" ? given.uri : undefined;
    const file = uri === undefined ? undefined : uriToPath(uri);
    if (file === undefined || !ctx.workspace.hosts.isProfile(file))
      return { outcome: "not_a_profile", lines: ["Update Lock needs a host profile's URI"] };
    const loaded = ctx.workspace.hosts.resultOf(file);
    const opened = loaded.ok ? openPlanSessionSync({ hostProfile: file, profile: loaded }) : undefined;
    if (opened === undefined || !opened.ok)
      return { outcome: "failed", file, lines: [`the host profile ${file} has problems: fix them first`] };
    const outcome = await opened.session.pinTools({ update: true });
    // The profile's diagnostics again, against the lock just written (a file watcher may be slower).
    ctx.workspace.hosts.invalidate(file);
    ctx.workspace.revalidateAll();
    return opened.session.mask.maskValue(resultOf(outcome));
  });
};

function resultOf(outcome: PinOutcome): UpdateLockCommand.Result {
  const { file } = outcome;
  switch (outcome.kind) {
    case "written":
      return { outcome: "written", file, lines: [] };
    case "unchanged":
      return { outcome: "unchanged", file, lines: [] };
    case "updated":
      return { outcome: "updated", file, lines: outcome.accepted.map((change) => change.text) };
    case "failed":
      return { outcome: "failed", file, lines: [...outcome.problems] };
    // Not with update: a drifted or damaged lock is replaced.
    case "drifted":
    case "invalid":
      return { outcome: "failed", file, lines: [`unexpected outcome ${outcome.kind}`] };
  }
}
