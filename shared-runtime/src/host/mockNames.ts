// The one rule on the names a mocks file answers for: a mock is used only when a plan calls its
// name, so a name that no tool or provider goes by (a plan's call, or the host's registry) is
// never used and the run it was meant for calls the real thing. Each such name is a warning
// located on its key, with the nearest name it could have meant; `run`, `check` and the
// language server ask this module, and only this one.

import { parsePlan } from "../plan/parse";
import { planNeeds, type PlanUses } from "../plan/needs";
import { nearestName } from "../text/nearestName";
import { mcpRoute } from "./mcp/spec";
import type { Mocks } from "./mocks";
import type { HostProfile, HostProfileError } from "./profile";

/** The names a mock may answer for: the plan's calls (when a plan is known) and the host's registry. */
export interface MockTargets {
  readonly profile?: HostProfile;
  /** What the plan calls; without it, only the host's registry counts. */
  readonly plan?: { readonly tools: ReadonlySet<string>; readonly providers: ReadonlySet<string> };
}

const SECTIONS = [
  { key: "tools", noun: "tool" },
  { key: "providers", noun: "provider" },
] as const;

/** One warning per mocked name nothing goes by, in the file's order (tools, then providers). */
export function mockNameWarnings(mocks: Mocks, targets: MockTargets): HostProfileError[] {
  const warnings: HostProfileError[] = [];
  for (const { key, noun } of SECTIONS) {
    const called = [...(targets.plan?.[key] ?? [])];
    const registered = targets.profile ? [...targets.profile[key].keys()] : [];
    const known = new Set([...called, ...registered]);
    for (const name of mocks[key].keys()) {
      if (known.has(name)) continue;
      if (key === "tools" && targets.profile && mcpRoute(name, targets.profile.mcpServers)) continue;
      const where = targets.plan
        ? `the plan calls no ${noun} ${JSON.stringify(name)}${targets.profile ? " and the host registers none" : ""}`
        : `the host registers no ${noun} ${JSON.stringify(name)}`;
      const nearest = nearestName(
        name,
        [...new Set([...called, ...registered])],
        Math.max(2, Math.floor(name.length / 2)),
      );
      const hint = nearest === undefined ? "" : `: did you mean ${JSON.stringify(nearest)}?`;
      const location = mocks.locate?.([key, name]) ?? {
        file: mocks.file ?? "mocks",
        line: 1,
        column: 1,
        offset: 0,
        length: 0,
      };
      warnings.push({
        ...location,
        jsonPath: `/${key}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        message: `${where}, so this mock is never used${hint}`,
      });
    }
  }
  return warnings;
}

/** What a plan file's text calls (tools, providers) and reads (inputs), or undefined when no plan can be read from it. */
export function planCalls(text: string): PlanUses | undefined {
  const { plan } = parsePlan({ kind: "document", text }, { collectAll: true });
  return plan ? planNeeds(plan) : undefined;
}
