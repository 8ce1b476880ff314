// `rlm-plan check --against REF`: what each checked plan's change since REF does to what it asks
// of its host and to its worst case (the core's what-if, one per plan session), in every format
// check has: a sentence a line, a JSON object, GitHub notices on the plan files, SARIF notes.

import { dirname } from "node:path";
import { whatIfSentence } from "@rlm-plan/core/plan";
import {
  baseRefProblem,
  resolveBaseCommit,
  sessionWhatIf,
  type PlanSession,
  type SessionWhatIf,
} from "@rlm-plan/core/session";
import { annotationPath } from "./checkFormats";
import { lineText } from "./guardedOutput";
import { commandData, commandProperty } from "./sink";
import type { Io } from "./output";

/** A --against REF that cannot be a commit-ish is a usage error, said before any file is read. */
export function refRefused(ref: string | undefined, io: Io): boolean {
  const problem = ref === undefined ? undefined : baseRefProblem(ref);
  if (problem !== undefined) io.err(`rlm-plan: --against: ${lineText(problem)}\n`);
  return problem !== undefined;
}

/** One plan compared: its file as given, the base commit, and the delta or why there is none. */
interface ComparedPlan {
  readonly file: string;
  readonly commit: string | undefined;
  readonly result: SessionWhatIf;
}

/** Compares plans against one ref; the ref is resolved once per folder (plans may sit in several repositories). */
export class AgainstRef {
  private readonly commits = new Map<string, ReturnType<typeof resolveBaseCommit>>();
  readonly compared: ComparedPlan[] = [];

  constructor(readonly ref: string) {}

  compare(file: string, session: PlanSession): void {
    const folder = dirname(session.file ?? file);
    let resolved = this.commits.get(folder);
    if (!resolved) {
      resolved = resolveBaseCommit(this.ref, folder);
      this.commits.set(folder, resolved);
    }
    this.compared.push(
      resolved.ok
        ? { file, commit: resolved.commit, result: sessionWhatIf(session, resolved.commit) }
        : { file, commit: undefined, result: { ok: false, message: resolved.message } },
    );
  }

  /** Whether some plan could not be compared (check then exits 1). */
  get failed(): boolean {
    return this.compared.some((plan) => !plan.result.ok);
  }

  /** Lines for people: a heading, then a sentence a plan. */
  textLines(): string[] {
    const lines = [`what-if against ${lineText(this.ref)}:`];
    for (const plan of this.compared)
      lines.push(
        `  ${lineText(plan.file)}: ${plan.result.ok ? whatIfSentence(plan.result.delta) : `cannot compare: ${lineText(plan.result.message)}`}`,
      );
    return lines;
  }

  /** The `against` member of check's JSON document. */
  json(): Record<string, unknown> {
    return {
      ref: this.ref,
      plans: this.compared.map((plan) =>
        plan.result.ok
          ? {
              file: plan.file,
              commit: plan.commit,
              ...plan.result.delta,
              summary: whatIfSentence(plan.result.delta),
            }
          : { file: plan.file, ...(plan.commit ? { commit: plan.commit } : {}), error: plan.result.message },
      ),
    };
  }

  /** A notice on each plan that changed what it reaches or costs, an error where none could be made. */
  githubLines(cwd: string): string[] {
    const title = commandProperty(`rlm-plan what-if against ${this.ref}`);
    const lines: string[] = [];
    for (const plan of this.compared) {
      const file = commandProperty(annotationPath(plan.file, cwd));
      if (!plan.result.ok)
        lines.push(
          `::error file=${file},title=${title}::${commandData(`cannot compare: ${lineText(plan.result.message)}`)}`,
        );
      else if (plan.result.delta.changed)
        lines.push(`::notice file=${file},line=1,title=${title}::${commandData(whatIfSentence(plan.result.delta))}`);
    }
    return lines;
  }

  /** SARIF results at level "note", one per plan that changed (rule `what_if`), the delta in their properties. */
  sarifResults(): { readonly file: string; readonly message: string; readonly properties: Record<string, unknown> }[] {
    return this.compared.flatMap((plan) =>
      plan.result.ok && plan.result.delta.changed
        ? [
            {
              file: plan.file,
              message: `against ${this.ref}: ${whatIfSentence(plan.result.delta)}`,
              // Counts past 2^53 stay bigints: the log is written as exact JSON text.
              properties: { whatIf: { commit: plan.commit, ...plan.result.delta } },
            },
          ]
        : [],
    );
  }

  /** Why plans could not be compared, for SARIF's notifications and text's stderr. */
  failures(): string[] {
    return this.compared.flatMap((plan) =>
      plan.result.ok ? [] : [`${plan.file}: cannot compare: ${plan.result.message}`],
    );
  }
}
