// Finding and reading host profiles for every front end: the nearest rlmplan.host.json above a
// plan (or the one named), read bounded and validated (from an editor's text when it has one).
// The only place outside host/profile.ts that reads a profile.

import {
  findHostProfile,
  HOST_PROFILE_FILENAME,
  hostProfileIn,
  loadHostProfile,
  parseHostProfile,
  type HostProfileResult,
} from "../host/profile";

export { HOST_PROFILE_FILENAME, hostProfileIn };

/** The host profile of a plan file: the nearest one in its folder or above. */
export function hostProfileOf(planFile: string): string | undefined {
  return findHostProfile(planFile);
}

/** A profile read from disk (bounded), or from the text an editor holds for it. */
export function readHostProfile(file: string, text?: string): HostProfileResult {
  return text === undefined ? loadHostProfile(file) : parseHostProfile(text, file);
}
