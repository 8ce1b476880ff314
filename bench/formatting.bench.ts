// Format Document on hostile documents (test/support/hostileDocuments.ts), in process: the
// server's formatPlan and the answer's JSON text, beside formatting a normal plan (the nested
// 100-step plan of plans.ts written on one line, so every token moves) timed in the same
// process. Target: every hostile document answered within about 200 ms on the shared machine.
//
//   npx tsc -b && node bench/out/formatting.bench.js

import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { formatPlan } from "@rlm-plan/language-server/service/formatting";
import { TextDocument } from "vscode-languageserver-textdocument";
import { calls, measure } from "./measure";
import { planText } from "./plans";
// The tests' hostile documents, compiled by the test project (bench/out is two levels down).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hostileDocuments } = require(
  join(__dirname, "..", "..", "test", "out", "support", "hostileDocuments"),
) as typeof import("../test/out/support/hostileDocuments");

const TARGET_MS = 200;
const OPTIONS = { options: { tabSize: 2, insertSpaces: true } };

/** formatPlan and the answer as the server sends it: its edits and the reason, if refused. */
function answer(document: TextDocument): () => string {
  return () => {
    let reason = "";
    const edits = formatPlan({ document }, OPTIONS, (message) => (reason = message));
    return JSON.stringify(edits) + reason;
  };
}

async function main(): Promise<void> {
  console.log(
    `formatting · node ${process.version} · ${cpus()[0]?.model ?? "cpu"} × ${cpus().length} · load ${loadavg()[0]?.toFixed(1)}`,
  );
  const normalText = JSON.stringify(JSON.parse(planText("nested", 100)));
  const normal = TextDocument.create("file:///normal.rlmplan.json", "rlm-plan", 1, normalText);
  const normalEdits = formatPlan({ document: normal }, OPTIONS).length;
  const said = (edits: number) => `${edits} edit${edits === 1 ? "" : "s"}`;
  console.log(
    `baseline: nested 100 steps on one line (${(normalText.length / 1e3).toFixed(0)} KB, ${said(normalEdits)})\n`,
  );
  console.log("document                                           size     answer          ms   × baseline  target");
  for (const { name, text } of hostileDocuments()) {
    const document = TextDocument.create("file:///hostile.rlmplan.json", "rlm-plan", 1, text);
    let refusal = "";
    const edits = formatPlan({ document }, OPTIONS, (message) => (refusal = message));
    const [base, hostile] = await measure(calls(answer(normal)), calls(answer(document)));

    console.log(
      [
        name.padEnd(48),
        `${(text.length / 1e6).toFixed(2)} MB`.padStart(9),
        (refusal ? "refused" : said(edits.length)).padStart(10),
        hostile.ms.toFixed(2).padStart(11),
        `${(hostile.ms / base.ms).toFixed(1)}x`.padStart(12),
        hostile.ms <= TARGET_MS ? "  within" : "  OVER",
      ].join(" "),
    );
  }
}

void main();
