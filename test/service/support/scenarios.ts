// The plan scenarios the document-wide features share (test/service/golden/plans/: a valid plan,
// one half typed, nested sub-plans, parallel branches, a host profile that restricts
// capabilities, unicode, problems, no host profile, issue 8's nested broken step), and a feature's
// own fixtures beside its goldens: each fixture analysed under the host profile
// its `//! host:` line names (`none`, or a file of plans/; rlmplan.host.json by default; cursor
// fixtures of other folders take their profiles from plans/ too), and one
// golden file `<feature>/<scenario>.expected.txt` per scenario, written by `produce`.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe } from "node:test";
import type { AnalyzedPlan } from "@rlm-plan/language-server/service/analyzedPlan";
import { analyzed, HOST_FILE, HOST_URI } from "./analyzed";
import { GOLDEN_ROOT, goldenFile, goldenTests, type GoldenFixture } from "./golden";
import { readable, type ReadableOptions } from "./readable";

export const SCENARIOS = "plans";

export interface Scenario {
  readonly fixture: GoldenFixture;
  readonly plan: AnalyzedPlan;
  readonly uri: string;
  readonly text: string;
  /** The host profile's text and URI, when the scenario has one. */
  readonly host: { readonly text: string; readonly uri: string } | undefined;
  /** `value` as the golden file prints it, ranges excerpted from this plan (or the host profile). */
  readable(value: unknown, options?: Pick<ReadableOptions, "enums">): string;
}

/** Folders whose absolute path must never reach a golden file. */
export const FIXTURE_FOLDERS = [dirname(HOST_FILE), GOLDEN_ROOT];

/** A golden fixture analysed as the open plan it describes, under its host profile. */
export function scenarioOf(fixture: GoldenFixture): Scenario {
  const hostName = fixture.directives.host ?? "rlmplan.host.json";
  const hostText = hostName === "none" ? undefined : goldenFile(SCENARIOS, hostName);
  const { plan, uri, text } = analyzed(fixture.text, hostText === undefined ? {} : { host: hostText });
  return {
    fixture,
    plan,
    uri,
    text,
    host: hostText === undefined ? undefined : { text: hostText, uri: HOST_URI },
    readable: (value, options = {}) =>
      readable(value, {
        ...options,
        text,
        uri,
        others: hostText === undefined ? {} : { [HOST_URI]: hostText },
        folders: FIXTURE_FOLDERS,
      }),
  };
}

/**
 * One golden test per plan scenario, and per fixture of the feature's own folder (the cases only
 * this feature needs): `<feature>/<name>.expected.txt` is what `produce` prints.
 */
export function scenarioGoldens(feature: string, produce: (scenario: Scenario) => string | Promise<string>): void {
  const own = existsSync(join(GOLDEN_ROOT, feature)) ? [feature] : [];
  describe(`${feature} (golden files over the plan scenarios and its own fixtures)`, () => {
    goldenTests(feature, async (fixture) => ({ ".expected.txt": await produce(scenarioOf(fixture)) }), {
      inputs: [SCENARIOS, ...own],
    });
  });
}

/** One golden test per cursor-marked fixture of `<feature>/`, each under its `//! host:` profile. */
export function cursorGoldens(
  feature: string,
  produce: (
    scenario: Scenario & { readonly position: NonNullable<GoldenFixture["position"]> },
  ) => string | Promise<string>,
): void {
  describe(`${feature} (golden files at cursor-marked fixtures)`, () => {
    goldenTests(feature, async (fixture) => {
      if (!fixture.position) throw new Error(`${fixture.name}: mark the cursor with |`);
      return { ".expected.txt": await produce({ ...scenarioOf(fixture), position: fixture.position }) };
    });
  });
}
