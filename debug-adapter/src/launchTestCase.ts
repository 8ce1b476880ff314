// The launch of a test file's case: its plan as the program, its host profile, and the case's host
// (its mocks or cassette, as `rlm-plan test` runs it).

import type { HostFactory } from "@rlm-plan/core/run";
import { casesOf, loadTestFile, testCaseHost } from "@rlm-plan/core/testing";
import { resolve } from "node:path";
import type { LaunchArguments } from "./launchArguments";

/** A test case's launch: its plan as the program, its host profile, and the case's host. */
export function testCaseLaunch(
  args: LaunchArguments,
  wanted: NonNullable<LaunchArguments["testCase"]>,
): { args: LaunchArguments; host: HostFactory } | { error: string } {
  const file = resolve(args.cwd ?? process.cwd(), wanted.file);
  const loaded = loadTestFile(file);
  if (!loaded.ok)
    return { error: loaded.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join("\n") };
  const view = { file, problems: [], cases: [], suite: loaded.suite };
  const testCase = casesOf(view, { name: wanted.name, kind: wanted.kind ?? "case" })[0];
  if (!testCase) return { error: `${file} has no case named ${JSON.stringify(wanted.name)}` };
  // The debugger launches a plan from its first step; a case of one step is run by rlm-plan test.
  if (testCase.step)
    return { error: `the case ${JSON.stringify(wanted.name)} runs one step ("step"): run it with rlm-plan test` };
  const chosen = testCaseHost(testCase, { ...(args.env ? { env: { ...process.env, ...args.env } } : {}) });
  if ("error" in chosen) return { error: chosen.error };
  return {
    args: { ...args, program: loaded.suite.planFile, hostProfile: loaded.suite.profile.file },
    host: chosen.host,
  };
}
