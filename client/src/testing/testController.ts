// VS Code's Testing view for plan tests: a test controller listing every case of the workspace's
// test files (`*.rlmplan.test.json`), as the server reads them (TestFileRequest), kept current as
// files change. Running asks the server to run the cases through the core's test runner
// (RunTestCasesRequest), only when the user asks and in a trusted workspace; a failing case shows
// each failed expectation at the case's line, with its expected and actual values as a diff.
// Debugging starts the `rlm-plan` debugger on the case (its plan, mocks or cassette).

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import {
  DebugTestCaseClientCommand,
  RunTestCaseClientCommand,
  RunTestCasesRequest,
  TestFileRequest,
  type TestCaseRunResult,
} from "@rlm-plan/language-server/protocol";

const TEST_CONTROLLER_ID = "rlmPlan.tests";
const TEST_FILES = "**/*.rlmplan.test.json";
const EXCLUDED = "**/{node_modules,out,dist,.git}/**";

type CaseKind = "case" | "dataset";

interface CaseData {
  readonly file: vscode.Uri;
  readonly name: string;
  readonly kind: CaseKind;
  /** The plan the case runs (breakpoints are set there). */
  readonly plan: string | null;
}

export class PlanTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, "RLM Plan tests");
  private readonly cases = new WeakMap<vscode.TestItem, CaseData>();
  private readonly disposables: vscode.Disposable[] = [this.controller];

  constructor(
    private readonly client: LanguageClient,
    private readonly keysFor: (plan: string) => Promise<Record<string, string>>,
  ) {
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile(
      "Run",
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token),
      true,
    );
    this.controller.createRunProfile("Debug", vscode.TestRunProfileKind.Debug, (request) => this.debug(request), true);
    const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILES);
    watcher.onDidCreate((uri) => void this.update(uri));
    watcher.onDidChange((uri) => void this.update(uri));
    watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString()));
    this.disposables.push(
      watcher,
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (document.uri.path.endsWith(".rlmplan.test.json")) void this.update(document.uri);
      }),
      vscode.commands.registerCommand(RunTestCaseClientCommand.command, (uri: string, name: string, kind: CaseKind) =>
        this.fromLens(uri, name, kind, vscode.TestRunProfileKind.Run),
      ),
      vscode.commands.registerCommand(DebugTestCaseClientCommand.command, (uri: string, name: string, kind: CaseKind) =>
        this.fromLens(uri, name, kind, vscode.TestRunProfileKind.Debug),
      ),
    );
  }

  /** Lists every test file of the workspace (reading is all: nothing runs). */
  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(TEST_FILES, EXCLUDED);
    await Promise.all(files.map((uri) => this.update(uri)));
  }

  /** Reads one test file's cases again (the server reads the open editor's text, else the disk). */
  async update(uri: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const answer = await this.client.sendRequest(TestFileRequest.type, { uri: uri.toString() });
    const id = uri.toString();
    const fileItem =
      this.controller.items.get(id) ?? this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
    fileItem.error =
      answer.errors > 0
        ? `${answer.errors} problem${answer.errors === 1 ? "" : "s"}: see the file's diagnostics`
        : undefined;
    const children = answer.cases.map((c) => {
      const item = this.controller.createTestItem(
        `${id}#${c.kind}:${c.name}`,
        c.kind === "dataset" ? `dataset ${c.name}` : c.name,
        uri,
      );
      item.range = new vscode.Range(
        c.range.start.line,
        c.range.start.character,
        c.range.end.line,
        c.range.end.character,
      );
      this.cases.set(item, { file: uri, name: c.name, kind: c.kind, plan: answer.plan });
      return item;
    });
    fileItem.children.replace(children);
    this.controller.items.add(fileItem);
    return fileItem;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async fromLens(uri: string, name: string, kind: CaseKind, profile: vscode.TestRunProfileKind): Promise<void> {
    const file = await this.update(vscode.Uri.parse(uri));
    const item = file?.children.get(`${uri}#${kind}:${name}`);
    if (!item) return;
    const request = new vscode.TestRunRequest([item]);
    const source = new vscode.CancellationTokenSource();
    try {
      if (profile === vscode.TestRunProfileKind.Run) await this.run(request, source.token);
      else await this.debug(request);
    } finally {
      source.dispose();
    }
  }

  /** The cases a request names (a file stands for all its cases), grouped by test file. */
  private selected(request: vscode.TestRunRequest): Map<string, vscode.TestItem[]> {
    const byFile = new Map<string, vscode.TestItem[]>();
    const add = (item: vscode.TestItem) => {
      if (request.exclude?.includes(item)) return;
      const data = this.cases.get(item);
      if (!data) {
        item.children.forEach(add);
        return;
      }
      const key = data.file.toString();
      byFile.set(key, [...(byFile.get(key) ?? []), item]);
    };
    if (request.include) request.include.forEach(add);
    else this.controller.items.forEach(add);
    return byFile;
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    try {
      const byFile = this.selected(request);
      if (!vscode.workspace.isTrusted) {
        const message = new vscode.TestMessage("Plan tests run tools and providers of the workspace: trust it first.");
        for (const items of byFile.values()) for (const item of items) run.errored(item, message);
        return;
      }
      for (const [uri, items] of byFile) {
        if (token.isCancellationRequested) break;
        for (const item of items) run.started(item);
        const plan = items.map((i) => this.cases.get(i)?.plan).find((p): p is string => typeof p === "string");
        const env = plan ? await this.keysFor(plan) : {};
        const answer = await this.client.sendRequest(
          RunTestCasesRequest.type,
          { uri, cases: items.map((i) => this.dataOf(i)), env },
          token,
        );
        if (!answer.ok) {
          for (const item of items) run.errored(item, new vscode.TestMessage(answer.message));
          continue;
        }
        for (const item of items) this.report(run, item, answer.results);
      }
    } finally {
      run.end();
    }
  }

  /** A case's verdict: its runs (repeats, a dataset's lines) all passed, or each failure at its line. */
  private report(run: vscode.TestRun, item: vscode.TestItem, results: readonly TestCaseRunResult[]): void {
    const data = this.cases.get(item);
    const mine = results.filter((r) => r.name === data?.name && r.kind === data?.kind);
    const duration = mine.reduce((sum, r) => sum + r.durationMs, 0);
    const failed = mine.filter((r) => !r.ok);
    if (mine.length === 0) return run.skipped(item);
    if (failed.length === 0) return run.passed(item, duration);
    const messages = failed.flatMap((result) => {
      const at = new vscode.Location(
        vscode.Uri.parse(result.location.uri),
        new vscode.Position(result.location.line, result.location.character),
      );
      const prefix = mine.length > 1 ? `${result.id}: ` : "";
      return result.failures.map((failure) => {
        const message =
          failure.expected !== undefined && failure.actual !== undefined
            ? vscode.TestMessage.diff(`${prefix}${failure.message}`, shown(failure.expected), shown(failure.actual))
            : new vscode.TestMessage(`${prefix}${failure.message}`);
        message.location = at;
        return message;
      });
    });
    run.failed(item, messages, duration);
  }

  /** Debugs the first case asked for, in the `rlm-plan` debugger, with its mocks or cassette. */
  private async debug(request: vscode.TestRunRequest): Promise<void> {
    const item = [...this.selected(request).values()].flat()[0];
    const data = item ? this.cases.get(item) : undefined;
    if (!item || !data) return;
    const run = this.controller.createTestRun(request);
    run.started(item);
    const folder = vscode.workspace.getWorkspaceFolder(data.file);
    const config: vscode.DebugConfiguration = {
      type: "rlm-plan",
      request: "launch",
      name: `Debug test case ${data.name}`,
      program: data.plan ?? "",
      testCase: { file: data.file.fsPath, name: data.name, kind: data.kind },
    };
    const ended = new Promise<void>((resolve) => {
      const listener = vscode.debug.onDidTerminateDebugSession((session) => {
        if (session.configuration.name !== config.name) return;
        listener.dispose();
        resolve();
      });
    });
    const started = await vscode.debug.startDebugging(folder, config, { testRun: run });
    if (started) await ended;
    run.appendOutput(
      started ? "Debugged; run the case to check its expectations.\r\n" : "The debugger did not start.\r\n",
    );
    run.skipped(item);
    run.end();
  }

  private dataOf(item: vscode.TestItem): { name: string; kind: CaseKind } {
    const data = this.cases.get(item) as CaseData;
    return { name: data.name, kind: data.kind };
  }
}

function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
