// The hostile documents of the hardening issue, measured over the protocol: a plan with 200,000
// duplicate keys (1.2 MB) and a 5 MB plan of 60,000 steps. For each: the time to its first
// diagnostics and how many, then the slowest answer among an edit's diagnostics, hover,
// completion, document symbols, folding and formatting (the target is under 2 s each).
// `node bench/out/lsp.bench.js --hostile` runs only this part.

import { join } from "node:path";
import { DocumentFormattingRequest, DocumentSymbolRequest, FoldingRangeRequest } from "vscode-languageserver-protocol";
import type { LspClient } from "@rlm-plan/lsp-harness";
import { timed } from "./measure";

export interface HostileRow {
  readonly name: string;
  readonly bytes: number;
  readonly openMs: number;
  readonly diagnostics: number;
  readonly requests: readonly (readonly [string, number])[];
}

const HOSTILE_TARGET_MS = 2000;

function documents(): [string, string][] {
  const duplicates = `{"steps":[{"op":"final","value":{${Array.from({ length: 200_000 }, () => '"a":1').join(",")}}}]}`;
  const steps = Array.from(
    { length: 60_000 },
    (_, i) => `{"op": "checkpoint", "label": "step ${i} of a plan that is five megabytes long, give or take"}`,
  );
  const large = `{"steps": [\n${steps.join(",\n")},\n{"op": "final", "value": 1}]}\n`;
  return [
    ["200,000 duplicate keys", duplicates],
    ["5 MB, 60,000 steps", large],
  ];
}

export async function measureHostile(session: LspClient, root: string): Promise<HostileRow[]> {
  const rows: HostileRow[] = [];
  for (const [index, [name, text]] of documents().entries()) {
    let opened: Awaited<ReturnType<LspClient["openChecked"]>> | undefined;
    const openMs = await timed(async () => {
      opened = await session.openChecked(join(root, `hostile-${index}.rlmplan.json`), text);
    });
    if (!opened) continue;
    const { uri, published } = opened;
    const textDocument = { uri };
    const edit = `${text.slice(0, 12)} ${text.slice(12)}`;
    const requests: [string, number][] = [
      ["edit -> diagnostics", await timed(() => session.changeTimed(uri, edit))],
      ["hover", await timed(() => session.hover(uri, { line: 0, character: 4 }))],
      ["completion", await timed(() => session.completion(uri, { line: 0, character: 2 }))],
      [
        "documentSymbol",
        await timed(() => session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument })),
      ],
      ["foldingRange", await timed(() => session.connection.sendRequest(FoldingRangeRequest.type, { textDocument }))],
      [
        "formatting",
        await timed(() =>
          session.connection.sendRequest(DocumentFormattingRequest.type, {
            textDocument,
            options: { tabSize: 2, insertSpaces: true },
          }),
        ),
      ],
    ];
    await session.close(uri);
    rows.push({ name, bytes: text.length, openMs, diagnostics: published.diagnostics.length, requests });
  }
  return rows;
}

export function printHostile(rows: readonly HostileRow[]): void {
  console.log("\n## hostile documents (target: every answer under 2 s)\n");
  for (const row of rows) {
    const slowest = Math.max(...row.requests.map(([, ms]) => ms));
    console.log(
      `${row.name} (${(row.bytes / 1e6).toFixed(1)} MB): first diagnostics ${(row.openMs / 1000).toFixed(2)} s (${row.diagnostics} published)`,
    );
    for (const [request, ms] of row.requests) console.log(`  ${request.padEnd(20)} ${(ms / 1000).toFixed(2)} s`);
    console.log(
      `  slowest answer ${(slowest / 1000).toFixed(2)} s: ${slowest <= HOSTILE_TARGET_MS ? "within" : "OVER"} the 2 s target`,
    );
  }
}
