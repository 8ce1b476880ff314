// Test files (`*.rlmplan.test.json`) in the server: diagnostics as they are edited, the cases of
// a file (open or on disk) for the Testing view, and runs of cases through the core's test
// runner when a client asks (RunTestCasesRequest), never otherwise. Hover, completion and code
// lenses for test files are answered by the features that answer them for plans (features.ts),
// from the view kept here.

import { isTestFile } from "@rlm-plan/core/workspaceFiles";
import { openPlanSessionSync } from "@rlm-plan/core/session";
import {
  casesOf,
  inExpectedOrder,
  runCases,
  type TestCase,
  testFileView,
  type TestFileView,
} from "@rlm-plan/core/testing";
import { MAX_PLAN_BYTES, readTextFileSync } from "@rlm-plan/core/text";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { RunTestCasesRequest, TestFileRequest, type TestCaseRunResult } from "../protocol";
import { testFileCases, testFileDiagnostics } from "../service/testFileLanguage";
import type { Feature, FeatureContext } from "./feature";
import { uriToPath } from "./hostProfiles";
import { pushDiagnostics } from "./diagnosticsPush";

/** Cases of one test file run at once (each case's run is a startRun of its own). */
const TEST_JOBS = 4;

/** The core's view of an open test file, per document version. */
const views = new WeakMap<TextDocument, { version: number; view: TestFileView }>();

/** The view of the test file at `uri`: the open document's text, else the file on disk; undefined for other files. */
export function testFileAt(
  ctx: FeatureContext,
  uri: string,
): { view: TestFileView; document?: TextDocument } | undefined {
  const file = uriToPath(uri);
  if (file === undefined || !isTestFile(file)) return undefined;
  const readPlan = (plan: string) => ctx.workspace.openText(plan);
  const document = ctx.documents.get(uri);
  if (document) {
    const cached = views.get(document);
    if (cached && cached.version === document.version) return { view: cached.view, document };
    const view = testFileView(document.getText(), file, { readPlan });
    views.set(document, { version: document.version, view });
    return { view, document };
  }
  return { view: testFileView(readTextFileSync(file, MAX_PLAN_BYTES), file, { readPlan }) };
}

export const testFiles: Feature = (ctx) => {
  ctx.workspace.onOtherDocumentChecked((document) => {
    const found = testFileAt(ctx, document.uri);
    if (!found?.document) return;
    pushDiagnostics(ctx, {
      uri: document.uri,
      version: document.version,
      diagnostics: testFileDiagnostics(found.document, found.view),
    });
  });

  ctx.connection.onRequest(
    TestFileRequest.type,
    ctx.guard.request(
      "testFile",
      ({ uri }) => {
        const found = testFileAt(ctx, uri);
        if (!found) return { uri, cases: [], errors: 0, plan: null };
        const { view } = found;
        const document = found.document ?? documentOf(uri, view);
        return {
          uri,
          cases: testFileCases(document, view),
          errors: view.problems.filter((p) => p.severity === "error").length,
          plan: view.suite?.planFile ?? null,
        };
      },
      { uri: "", cases: [], errors: 0, plan: null },
    ),
  );

  ctx.connection.onRequest(
    RunTestCasesRequest.type,
    ctx.guard.request<RunTestCasesRequest.Params, RunTestCasesRequest.Result>(
      "runTestCases",
      async (params, token) => {
        const found = testFileAt(ctx, params.uri);
        if (!found) return { ok: false, message: `${params.uri} is not a test file (*.rlmplan.test.json)` };
        const { view } = found;
        const suite = view.suite;
        if (!suite) {
          const first = view.problems.find((p) => p.severity === "error");
          return { ok: false, message: `The test file cannot run: ${first?.message ?? "it has errors"}` };
        }
        const written = params.cases ?? view.cases;
        const chosen: { testCase: TestCase; name: string; kind: "case" | "dataset" }[] = written.flatMap((w) =>
          casesOf(view, w).map((testCase) => ({ testCase, name: w.name, kind: w.kind })),
        );
        // The run's secrets (the profile's key variables, the client's keys) mask every answer.
        const env = { ...process.env, ...(params.env ?? {}) };
        const opened = openPlanSessionSync({
          file: suite.planFile,
          hostProfile: suite.profile.file,
          ...(params.env ? { clientEnv: params.env } : {}),
        });
        if (opened.ok) ctx.secretsLearned(opened.session.secretValues());
        else ctx.secretsLearned(Object.values(params.env ?? {}));
        const controller = new AbortController();
        const stop = token.onCancellationRequested(() => controller.abort());
        try {
          const results = await runCases(
            chosen.map((c) => c.testCase),
            { jobs: TEST_JOBS, env, signal: controller.signal },
          );
          return {
            ok: true,
            results: results.map((result, i): TestCaseRunResult => {
              const { name, kind, testCase } = chosen[i] as (typeof chosen)[number];
              const where = testCase.location;
              return {
                name,
                kind,
                id: result.id,
                ok: result.ok,
                failures: result.failures.map((f) => ({
                  assertion: f.assertion,
                  message: f.message,
                  ...(f.expected !== undefined ? { expected: f.expected } : {}),
                  // Laid out for a diff beside the expected value (key order only).
                  ...(f.actual !== undefined ? { actual: inExpectedOrder(f.actual, f.expected) } : {}),
                })),
                location: {
                  uri: pathToFileURL(resolve(where.file)).href,
                  line: where.line - 1,
                  character: where.column - 1,
                },
                durationMs: result.duration_ms,
                answered: result.answered,
              };
            }),
          };
        } finally {
          stop.dispose();
        }
      },
      { ok: false, message: "The test run failed; see the server's log." },
    ),
  );
};

/** A TextDocument over a test file that is not open, for its ranges. */
function documentOf(uri: string, view: TestFileView): TextDocument {
  return TextDocument.create(uri, "json", 0, readTextFileSync(view.file, MAX_PLAN_BYTES));
}
