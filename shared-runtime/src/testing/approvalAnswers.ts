// A test case's `approvals` entry as the loader reads it (testFile.ts): what the schema cannot
// say well (a vote names its voter, a timeout has none; the step exists) said at the entry.

import type { ApprovalAnswer } from "./testCase";

/** An entry as written (checked against schemas/plan-test.schema.json). */
export interface RawApprovalAnswer {
  readonly step?: string;
  readonly vote: "approve" | "deny" | "timeout";
  readonly as?: string;
  readonly reason?: string;
}

/** The entry at `where` in the test file as the runner casts it; its problems go to `error`. */
export function approvalAnswer(
  answer: RawApprovalAnswer,
  caseName: string,
  where: (string | number)[],
  file: {
    readonly at: (where: (string | number)[]) => { readonly line: number; readonly column: number };
    readonly error: (where: (string | number)[], message: string) => void;
    /** The plan's steps as JSON Pointers, when it parses. */
    readonly steps?: ReadonlySet<string>;
  },
): ApprovalAnswer {
  if (answer.step !== undefined && file.steps && !file.steps.has(answer.step))
    file.error([...where, "step"], `the plan has no step ${answer.step}`);
  const { line, column } = file.at(where);
  const place = { ...(answer.step !== undefined ? { step: answer.step } : {}), at: { line, column } };
  if (answer.vote === "timeout") {
    for (const key of ["as", "reason"] as const)
      if (answer[key] !== undefined)
        file.error([...where, key], `"${key}" is for a vote: a request left to time out has no voter`);
    return { ...place, vote: "timeout" };
  }
  if (answer.as === undefined)
    file.error(
      where,
      `a vote needs "as": who ${answer.vote === "deny" ? "denies" : "approves"} (one of the approval rule's approvers)`,
    );
  // The audit keeps why; a case that says nothing is named.
  const reason = answer.reason ?? `rlm-plan test: case ${JSON.stringify(caseName)}`;
  return { ...place, vote: answer.vote, as: answer.as ?? "", reason };
}
