// The what-if lens and the first line's hover against golden files: every plan scenario compared
// with the `valid` scenario as its base, and what-if's own fixtures, whose `//! base:` names the
// base (a file of golden/what-if/, `new` for a plan the base lacks, or `error: MESSAGE`).

import { goldenFile } from "./support/golden";
import { scenarioGoldens } from "./support/scenarios";
import { planReachOfText, type ReachHost } from "@rlm-plan/core/plan";
import { whatIfHover, whatIfLenses, type WhatIfBase } from "@rlm-plan/language-server/service/whatIfLens";

function baseOf(written: string | undefined, host: ReachHost | undefined): WhatIfBase {
  if (written === "new") return { kind: "new" };
  if (written?.startsWith("error: ")) return { kind: "error", message: written.slice("error: ".length) };
  const text = written === undefined ? goldenFile("plans", "valid.input.rlmplan.json") : goldenFile("what-if", written);
  const reach = planReachOfText(text, host);
  return reach ? { kind: "reach", reach } : { kind: "unreadable" };
}

scenarioGoldens("what-if", ({ fixture, plan, readable }) => {
  const input = { ref: "HEAD", base: baseOf(fixture.directives.base, plan.host?.whatIf) };
  return [
    "lenses:",
    readable(whatIfLenses(plan, input)),
    "hover on the first line:",
    whatIfHover(plan, input) ?? "(none)",
    "",
  ].join("\n");
});
