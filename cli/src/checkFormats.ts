// The machine formats of `rlm-plan check`: SARIF 2.1.0 (for code-scanning uploads) and GitHub
// Actions workflow commands (annotations on the pull request's lines). Both are built from the
// same reports as the text and JSON output, so every format says the same thing.

import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { lineText } from "./guardedOutput";
import { commandData as data, commandProperty as property } from "./sink";
import type { CheckedFile, ReportedProblem } from "./report";

const INFORMATION_URI = "https://github.com/rlm-plan/rlm-plan#readme";
/** The rule of check --against's notes: what a plan's change does to what it reaches and costs. */
const WHAT_IF_RULE = "what_if";

/** What check --against adds to the log (checkAgainst.ts): a note per changed plan, and failures. */
export interface WhatIfNotes {
  sarifResults(): readonly { readonly file: string; readonly message: string; readonly properties: object }[];
  failures(): readonly string[];
}

/** A SARIF log with one run: a rule per problem code met, a result per problem. */
export function sarifLog(
  files: readonly CheckedFile[],
  version: string,
  cwd: string,
  notes: readonly string[] = [],
  against?: WhatIfNotes,
): Record<string, unknown> {
  const ruleIds: string[] = [];
  const ruleIndex = (code: string): number => {
    let index = ruleIds.indexOf(code);
    if (index < 0) index = ruleIds.push(code) - 1;
    return index;
  };
  const results: Record<string, unknown>[] = [];
  const notifications: Record<string, unknown>[] = [];
  for (const file of files) {
    const artifact = artifactLocation(file.file, cwd);
    if (file.readError !== undefined) {
      notifications.push({
        level: "error",
        message: { text: `cannot read ${file.file}: ${file.readError}` },
        locations: [{ physicalLocation: { artifactLocation: artifact } }],
      });
      continue;
    }
    for (const problem of file.problems) {
      results.push({
        ruleId: problem.code,
        ruleIndex: ruleIndex(problem.code),
        level: problem.severity,
        message: { text: problem.message },
        locations: [{ physicalLocation: { artifactLocation: artifact, region: region(problem) } }],
        ...(problem.related.length > 0
          ? {
              relatedLocations: problem.related.map((related, id) => ({
                id,
                message: { text: related.message },
                physicalLocation: { artifactLocation: artifact, region: region(related) },
              })),
            }
          : {}),
      });
    }
  }
  // check --against: a note on each plan whose change reaches or costs more or less (rule what_if).
  for (const changed of against?.sarifResults() ?? [])
    results.push({
      ruleId: WHAT_IF_RULE,
      ruleIndex: ruleIndex(WHAT_IF_RULE),
      level: "note",
      message: { text: changed.message },
      locations: [
        { physicalLocation: { artifactLocation: artifactLocation(changed.file, cwd), region: { startLine: 1 } } },
      ],
      properties: changed.properties,
    });
  for (const failure of against?.failures() ?? []) notifications.push({ level: "error", message: { text: failure } });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "rlm-plan",
            version,
            informationUri: INFORMATION_URI,
            rules: ruleIds.map((id) => ({
              id,
              name: ruleName(id),
              shortDescription: { text: sentence(id) },
              defaultConfiguration: { level: id === WHAT_IF_RULE ? "note" : "error" },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : cwd + sep).href } },
        columnKind: "utf16CodeUnits",
        results,
        invocations: [
          {
            executionSuccessful: notifications.length === 0,
            // What the check left to --preflight, or what its preflight started: notes, not failures.
            toolExecutionNotifications: [
              ...notifications,
              ...notes.map((note) => ({ level: "note", message: { text: note } })),
            ],
          },
        ],
      },
    ],
  };
}

/** Inside the working folder: a relative URI against SRCROOT (what code scanning maps to the repository). */
function artifactLocation(file: string, cwd: string): Record<string, unknown> {
  const absolute = resolve(cwd, file);
  const rel = relative(cwd, absolute);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return { uri: pathToFileURL(absolute).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join("/"), uriBaseId: "SRCROOT" };
}

function region(place: Pick<ReportedProblem, "line" | "column" | "endLine" | "endColumn">): Record<string, number> {
  return { startLine: place.line, startColumn: place.column, endLine: place.endLine, endColumn: place.endColumn };
}

/** `unbound_variable` -> `UnboundVariable`, SARIF's convention for rule names. */
function ruleName(code: string): string {
  return code
    .split(/[_\s]+/)
    .filter((part) => part !== "")
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");
}

/** `unbound_variable` -> `Unbound variable`. */
function sentence(code: string): string {
  const words = code.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * GitHub workflow commands, one per problem: `::error file=F,line=L,col=C,...::MESSAGE`. Related
 * places are appended to the message, since an annotation has one place.
 */
export function githubAnnotations(files: readonly CheckedFile[], cwd: string): string[] {
  const lines: string[] = [];
  for (const file of files) {
    const path = annotationPath(file.file, cwd);
    if (file.readError !== undefined) {
      lines.push(`::error file=${property(path)},title=rlm-plan::${data(`cannot read: ${lineText(file.readError)}`)}`);
      continue;
    }
    for (const problem of file.problems) {
      const notes = problem.related.map((r) => `\n${path}:${r.line}:${r.column}: ${lineText(r.message)}`).join("");
      const properties = [
        `file=${property(path)}`,
        `line=${problem.line}`,
        `col=${problem.column}`,
        `endLine=${problem.endLine}`,
        `endColumn=${problem.endColumn}`,
        `title=${property(`rlm-plan ${problem.code}`)}`,
      ].join(",");
      lines.push(`::${problem.severity} ${properties}::${data(lineText(problem.message) + notes)}`);
    }
  }
  return lines;
}

export function annotationPath(file: string, cwd: string): string {
  const rel = relative(cwd, resolve(cwd, file));
  // Not lineText: the runner undoes data()'s escapes, so a name with a line break stays exact.
  return (rel.startsWith("..") || isAbsolute(rel) ? resolve(cwd, file) : rel).split(sep).join("/");
}
