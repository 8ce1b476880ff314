// The paths a host profile names (file inputs, the journal's folder, the working folders of
// command tools and MCP servers, the paths they may write in the sandbox), held to the workspace boundary when the profile is read: every
// front end reads a profile through here, so none can open one of those paths outside the
// workspace, and an editor shows the refusal on the string itself.

import { hasOwn, isJsonObject, pointer, type JsonObject, type JsonPath } from "../json";
import { workspacePath } from "./workspaceBoundary";
import type { HostProfileError, Locator } from "./profileTypes";

/** Every path of the profile at `file` that leads outside its workspace, located at its string. */
export function profilePathErrors(
  value: JsonObject,
  file: string,
  at: Locator,
  failedUnder: (prefix: string) => boolean,
): HostProfileError[] {
  const errors: HostProfileError[] = [];
  const check = (path: JsonPath, written: unknown) => {
    if (typeof written !== "string" || failedUnder(pointer(path))) return;
    const bounded = workspacePath(file, written);
    if (!bounded.ok) errors.push({ ...at.path(path), jsonPath: pointer(path), message: bounded.message });
  };
  const section = (key: string): JsonObject => (hasOwn(value, key) && isJsonObject(value[key]) ? value[key] : {});
  for (const [name, spec] of Object.entries(section("inputs")))
    if (isJsonObject(spec) && (spec.type === "text-file" || spec.type === "items-file"))
      check(["inputs", name, "path"], spec.path);
  const journal = section("journal");
  if (hasOwn(journal, "dir")) check(["journal", "dir"], journal.dir);
  for (const key of ["tools", "mcpServers"])
    for (const [name, spec] of Object.entries(section(key)))
      if (isJsonObject(spec)) {
        if (hasOwn(spec, "cwd")) check([key, name, "cwd"], spec.cwd);
        // What a tool may write in the sandbox: only inside the workspace, never its .git.
        if (Array.isArray(spec.writes)) spec.writes.forEach((path, i) => check([key, name, "writes", i], path));
      }
  return errors;
}
