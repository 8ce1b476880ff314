// Big plans over the real protocol (issue 20, item 5; issue 22, target 4): a 5.2 MB plan of
// 63,000 steps, a 21 MB one of 252,000 (both a chain of tool steps, one a line, as a generator
// writes them) and the 5.8 MB plan of 60,000 checkpoints. Each in a server of its own, so its
// peak memory is its own: the time to its first diagnostics, then an edit (one character typed,
// an incremental change) to its diagnostics, document symbols (also asked at open and asked twice
// after the edit, as an editor's outline and breadcrumbs do), semantic tokens (full, and a
// screen's range in the middle), hover and completion in the middle; whether each answered or
// was refused (the server's messages), and the server's peak resident memory. Targets: every
// answer within 2 s or a refusal with a message, peak under 1 GB; the 5.8 MB plan's edit and
// symbols under 1 s. Prints figures; asserts nothing.
//
//   node bench/out/big-documents.bench.js                  all three documents
//   node bench/out/big-documents.bench.js --only 21        the documents whose name has "21"
//   node bench/out/big-documents.bench.js --cpu-prof       each server under --cpu-prof, then its top functions
//   RLM_PLAN_BENCH_SERVER=/path/to/main.js ...             another build (a "before")
//   node bench/out/big-documents.bench.js --edits [--before /path/to/main.js] [--rounds N]
//       memory of a big plan (issue 34 item 11): a 6.0 MB plan of 60,000 steps open, five edits each
//       followed by its diagnostics and two outlines; resident memory after each edit, the peak, and
//       the live heap after a full collection; with --before, that build in turn in the same run

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import {
  DocumentSymbolRequest,
  LogMessageNotification,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  ShowMessageNotification,
  type Position,
} from "vscode-languageserver-protocol";
import { LspClient, SERVER_MAIN } from "@rlm-plan/lsp-harness";
import { editsMemory } from "./bigPlanMemory";
import { summarizeCpuProfile } from "./cpuProfile";

const REPO = resolve(__dirname, "..", "..");
const SERVER = process.env.RLM_PLAN_BENCH_SERVER ?? SERVER_MAIN;
/** A request unanswered after this is recorded as such and the document left. */
const GIVE_UP_MS = 90_000;
const TARGET_MS = 2000;
const PEAK_TARGET_KIB = 1024 * 1024;

interface BigDocument {
  readonly name: string;
  readonly text: string;
  /** Where hover and completion ask, and the line the range of semantic tokens is around. */
  readonly middle: { readonly hover: Position; readonly completion: Position; readonly line: number };
}

/** `steps` tool steps, each reading the one before, one a line: about 83 bytes a step. */
function chainPlan(steps: number): BigDocument {
  const lines = ['{"steps": [', '{"op":"tool","name":"echo","args":"seed","bind":"x1"},'];
  for (let i = 2; i < steps; i++)
    lines.push(`{"op":"tool","name":"echo","args":{"ref":"var","name":"x${i - 1}"},"bind":"x${i}"},`);
  lines.push(`{"op":"final","value":{"ref":"var","name":"x${steps - 1}"}}`, "]}", "");
  const line = Math.floor(steps / 2);
  const text = lines[line] ?? "";
  const reference = text.indexOf('"name":"x') + 9;
  return {
    name: `${(lines.join("\n").length / 1e6).toFixed(1)} MB, ${steps.toLocaleString("en")} steps`,
    text: lines.join("\n"),
    middle: {
      hover: { line, character: reference + 1 },
      completion: { line, character: text.indexOf('"bind"') },
      line,
    },
  };
}

/** The 5.8 MB plan of issue 22 (lspHostile.ts's): 60,000 checkpoints, each drawing a warning. */
function checkpointPlan(): BigDocument {
  const steps = Array.from(
    { length: 60_000 },
    (_, i) => `{"op": "checkpoint", "label": "step ${i} of a plan that is five megabytes long, give or take"}`,
  );
  const text = `{"steps": [\n${steps.join(",\n")},\n{"op": "final", "value": 1}]}\n`;
  const line = 30_000;
  return {
    name: `${(text.length / 1e6).toFixed(1)} MB, 60,000 checkpoints`,
    text,
    middle: { hover: { line, character: 4 }, completion: { line, character: 1 }, line },
  };
}

interface Answer {
  readonly request: string;
  readonly ms: number;
  /** The server process's CPU time (user + system) meanwhile: steadier than wall time under load. */
  readonly cpuMs: number;
  /** What came back, in a few words ("312 symbols", "null", "no answer"). */
  readonly result: string;
}

interface Row {
  readonly name: string;
  readonly bytes: number;
  readonly openMs: number;
  /** From the first diagnostics until the server went idle (it parses the source tree then). */
  readonly settleMs: number;
  readonly diagnostics: number;
  readonly answers: readonly Answer[];
  readonly peakKiB: number;
  readonly messages: readonly string[];
}

/** Waits until the process has used no CPU for half a second; answers how long that took. */
async function settled(pid: number | undefined): Promise<number> {
  const start = performance.now();
  for (let before = cpuTime(pid); ;) {
    await new Promise((done) => setTimeout(done, 500));
    const now = cpuTime(pid);
    if (now - before < 20) return performance.now() - start - 500;
    before = now;
  }
}

/** CPU time of a process so far (user + system), from /proc (Linux), in milliseconds. */
function cpuTime(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

const CLOCK_TICKS = 100;

async function timedAnswer(
  pid: number | undefined,
  request: string,
  send: () => Promise<unknown>,
  describe: (value: unknown) => string,
): Promise<Answer> {
  const start = performance.now();
  const cpuStart = cpuTime(pid);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<"no answer">((done) => (timer = setTimeout(() => done("no answer"), GIVE_UP_MS)));
  try {
    const value = await Promise.race([send(), gaveUp]);
    return {
      request,
      ms: performance.now() - start,
      cpuMs: cpuTime(pid) - cpuStart,
      result: value === "no answer" ? value : describe(value),
    };
  } catch (error) {
    return {
      request,
      ms: performance.now() - start,
      cpuMs: cpuTime(pid) - cpuStart,
      result: `error: ${(error as Error).message}`,
    };
  } finally {
    clearTimeout(timer);
  }
}

function count(noun: string): (value: unknown) => string {
  return (value) => {
    if (value === null || value === undefined) return "null";
    if (Array.isArray(value)) return `${value.length} ${noun}`;
    const data = (value as { data?: unknown }).data;
    if (Array.isArray(data)) return `${data.length / 5} ${noun}`;
    const items = (value as { items?: unknown }).items;
    if (Array.isArray(items)) return `${items.length} ${noun}`;
    return `a ${noun}`;
  };
}

async function measure(document: BigDocument, root: string, profileDir: string | undefined): Promise<Row> {
  const messages: string[] = [];
  const client = await LspClient.start({
    root,
    settings: { validationDelay: 0 },
    initializationOptions: { rlmPlan: { validationDelay: 0 } },
    serverMain: SERVER,
    waitMs: GIVE_UP_MS,
    ...(profileDir ? { cpuProfileDir: profileDir } : {}),
    onConnection: (connection) => {
      connection.onNotification(ShowMessageNotification.type, (params) => void messages.push(params.message));
      connection.onNotification(LogMessageNotification.type, (params) => void messages.push(params.message));
    },
  });
  try {
    const file = join(root, `big-${Date.now()}.rlmplan.json`);
    const start = performance.now();
    const { uri, published } = await client.openChecked(file, document.text);
    const openMs = published.at - start;
    // After its diagnostics the server parses the source tree (for hover and the rest): let it
    // finish, so the edit below is timed alone; a user who types at once waits for both.
    const settleMs = await settled(client.pid);
    const textDocument = { uri };
    const answers: Answer[] = [];
    const outlineAsk = () => client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument });
    // An editor's outline asks as the document opens, then after every change (the breadcrumbs too).
    answers.push(await timedAnswer(client.pid, "documentSymbol (open)", outlineAsk, count("symbols")));
    // One character typed in the middle of the document, as an editor sends it.
    const editAt = { line: document.middle.line, character: 1 };
    answers.push(
      await timedAnswer(
        client.pid,
        "edit -> diagnostics",
        async () => {
          const version = await client.edit(uri, { start: editAt, end: editAt }, " ");
          return (await client.diagnosticsOf(uri, version)).diagnostics;
        },
        count("diagnostics"),
      ),
    );
    const line = document.middle.line;
    answers.push(
      await timedAnswer(client.pid, "documentSymbol", outlineAsk, count("symbols")),
      await timedAnswer(client.pid, "documentSymbol (again)", outlineAsk, count("symbols")),
      await timedAnswer(
        client.pid,
        "semanticTokens/full",
        () => client.connection.sendRequest(SemanticTokensRequest.type, { textDocument }),
        count("tokens"),
      ),
      await timedAnswer(
        client.pid,
        "semanticTokens/range",
        () =>
          client.connection.sendRequest(SemanticTokensRangeRequest.type, {
            textDocument,
            range: { start: { line, character: 0 }, end: { line: line + 60, character: 0 } },
          }),
        count("tokens"),
      ),
      await timedAnswer(client.pid, "hover", () => client.hover(uri, document.middle.hover), count("hover")),
      await timedAnswer(
        client.pid,
        "completion",
        () => client.completion(uri, document.middle.completion),
        count("items"),
      ),
    );
    const { peakKiB } = client.memory();
    return {
      name: document.name,
      bytes: document.text.length,
      openMs,
      settleMs,
      diagnostics: published.diagnostics.length,
      answers,
      peakKiB,
      messages,
    };
  } finally {
    await client.stop();
    client.kill();
  }
}

function print(row: Row): void {
  console.log(
    `\n${row.name}: first diagnostics ${(row.openMs / 1000).toFixed(2)} s (${row.diagnostics} published), then busy ${(row.settleMs / 1000).toFixed(2)} s; peak ${(row.peakKiB / 1024).toFixed(0)} MB (${row.peakKiB <= PEAK_TARGET_KIB ? "within" : "OVER"} 1 GB)`,
  );
  for (const answer of row.answers) {
    const verdict = answer.ms <= TARGET_MS ? "" : answer.result === "no answer" ? "  NO ANSWER" : "  OVER 2 s";
    console.log(
      `  ${answer.request.padEnd(22)} ${(answer.ms / 1000).toFixed(2).padStart(6)} s (server CPU ${(answer.cpuMs / 1000).toFixed(2)} s)  ${answer.result}${verdict}`,
    );
  }
  for (const message of new Set(row.messages)) console.log(`  message: ${message}`);
}

async function main(): Promise<void> {
  const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
  const profile = process.argv.includes("--cpu-prof");
  console.log(
    `big documents over stdio; server ${SERVER.replace(`${REPO}/`, "")}; load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" / ")}`,
  );
  const documents = [() => chainPlan(63_000), () => checkpointPlan(), () => chainPlan(252_000)];
  const root = mkdtempSync(join(os.tmpdir(), "rlm-plan-big-"));
  writeFileSync(
    join(root, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(echo)"],
      tools: { echo: { type: "command", command: ["node", "echo.js"], description: "Never run: checked only." } },
    }),
  );
  try {
    if (process.argv.includes("--edits")) return await editsMemory(SERVER, root, process.argv);
    for (const make of documents) {
      const document = make();
      if (only !== undefined && !document.name.includes(only)) continue;
      const profileDir = profile ? mkdtempSync(join(os.tmpdir(), "rlm-plan-big-prof-")) : undefined;
      print(await measure(document, root, profileDir));
      if (profileDir) {
        for (const file of readdirSync(profileDir)) {
          const summary = summarizeCpuProfile(join(profileDir, file), REPO);
          console.log(`  profile: ${summary.sampledMs.toFixed(0)} ms sampled, GC ${summary.gcMs.toFixed(0)} ms`);
          console.log("  by self time:");
          for (const fn of [...summary.functions].sort((a, b) => b.selfMs - a.selfMs).slice(0, 15))
            console.log(
              `    self ${fn.selfMs.toFixed(0).padStart(6)} ms  total ${fn.totalMs.toFixed(0).padStart(6)} ms  ${fn.where}`,
            );
          console.log("  by total time (the server's and the core's functions):");
          for (const fn of [...summary.functions]
            .filter((f) => /(server|shared-runtime)\/out\//.test(f.where))
            .sort((a, b) => b.totalMs - a.totalMs)
            .slice(0, 30))
            console.log(
              `    self ${fn.selfMs.toFixed(0).padStart(6)} ms  total ${fn.totalMs.toFixed(0).padStart(6)} ms  ${fn.where}`,
            );
        }
        rmSync(profileDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(
    `\nload average at the end: ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" / ")}`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
