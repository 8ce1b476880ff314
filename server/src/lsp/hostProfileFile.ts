// The host profile in force for a plan, as navigation and quick fixes need it: the parsed
// profile the workspace already holds (to locate entries) and, for edits, the file's current
// text (the editor's when it is open, the disk's otherwise).

import type { HostProfile } from "@rlm-plan/core/host";
import { MAX_HOST_PROFILE_BYTES, readTextFileSync } from "@rlm-plan/core/text";
import { pathToFileURL } from "node:url";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import type { HostProfileFile } from "../service/codeActions";
import { uriToPath } from "./hostProfiles";
import type { PlanWorkspace } from "./workspace";

/** The usable profile of a plan's host; undefined when there is none or it has errors. */
export function hostProfileOf(workspace: PlanWorkspace, plan: AnalyzedPlan): HostProfile | undefined {
  const file = plan.host?.file;
  if (file === undefined) return undefined;
  const result = workspace.hosts.resultOf(file);
  return result.ok ? result.profile : undefined;
}

/** The profile with the URI and text an edit of it starts from. */
export function hostProfileFile(workspace: PlanWorkspace, plan: AnalyzedPlan): HostProfileFile | undefined {
  const profile = hostProfileOf(workspace, plan);
  if (!profile) return undefined;
  const open = workspace.documents.all().find((document) => uriToPath(document.uri) === profile.file);
  if (open) return { uri: open.uri, text: open.getText(), profile };
  try {
    return {
      uri: pathToFileURL(profile.file).href,
      text: readTextFileSync(profile.file, MAX_HOST_PROFILE_BYTES),
      profile,
    };
  } catch {
    return undefined;
  }
}
