// Memory of a big plan as an editor holds it (issue 34 item 11, `big-documents.bench.js --edits`):
// a 6.0 MB plan of 60,000 tool steps, formatted one step a line, open in a server of its own; five
// edits, each followed by its diagnostics and two outlines (the outline view and the breadcrumbs),
// as someone typing in the middle of it. Prints the server's resident memory after each edit, its
// peak, and its live heap after a full collection (the memory hook); with `--before MAIN`, that
// build is measured in turn in the same run. Asserts nothing.

import * as os from "node:os";
import { join } from "node:path";
import { DocumentSymbolRequest } from "vscode-languageserver-protocol";
import { LspClient } from "@rlm-plan/lsp-harness";

const STEPS = 60_000;
const EDITS = 5;
const WAIT_MS = 300_000;
const MiB = 1024 * 1024;

/** A chain of `steps` tool steps, each reading the one before, as a formatter writes it. */
function formattedChain(steps: number): string {
  const lines = ["{", '  "steps": [', '    { "op": "tool", "name": "echo", "args": "seed", "bind": "x1" },'];
  for (let i = 2; i < steps; i++)
    lines.push(`    { "op": "tool", "name": "echo", "args": { "ref": "var", "name": "x${i - 1}" }, "bind": "x${i}" },`);
  lines.push(`    { "op": "final", "value": { "ref": "var", "name": "x${steps - 1}" } }`, "  ]", "}", "");
  return lines.join("\n");
}

interface Figures {
  readonly afterEdits: readonly number[];
  readonly peakMiB: number;
  readonly heldMiB: number;
  readonly liveHeapMiB: number;
}

async function measure(serverMain: string, root: string, text: string): Promise<Figures> {
  const client = await LspClient.start({
    root,
    settings: { validationDelay: 0 },
    initializationOptions: { rlmPlan: { validationDelay: 0 } },
    serverMain,
    waitMs: WAIT_MS,
    memoryHook: true,
  });
  try {
    const { uri } = await client.openChecked(join(root, "big.rlmplan.json"), text);
    const outline = () => client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    await outline();
    const afterEdits: number[] = [];
    const at = { line: STEPS / 2, character: 1 };
    for (let i = 0; i < EDITS; i++) {
      const version = await client.edit(uri, { start: at, end: at }, " ");
      await client.diagnosticsOf(uri, version);
      await outline();
      await outline();
      afterEdits.push(client.memory().rssKiB / 1024);
    }
    const { rssKiB, peakKiB } = client.memory();
    const live = await client.collectGarbage();
    return { afterEdits, peakMiB: peakKiB / 1024, heldMiB: rssKiB / 1024, liveHeapMiB: live.heapUsed / MiB };
  } finally {
    await client.stop();
    client.kill();
  }
}

/** In `root`, a folder with a host profile that grants `tool(echo)`. */
export async function editsMemory(server: string, root: string, argv: readonly string[]): Promise<void> {
  const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const before = option("--before");
  const rounds = Number(option("--rounds") ?? "1");
  const text = formattedChain(STEPS);
  const builds = before
    ? [["this build", server] as const, ["before", before] as const]
    : [["this build", server] as const];
  const load = () =>
    os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" / ");
  console.log(
    `${(text.length / 1e6).toFixed(1)} MB, ${STEPS.toLocaleString("en")} steps; ${EDITS} edits, each then diagnostics and two outlines`,
  );
  for (let round = 1; round <= rounds; round++) {
    for (const [name, main] of builds) {
      const loadBefore = load();
      const f = await measure(main, root, text);
      console.log(
        `${name.padEnd(10)} RSS after each edit ${f.afterEdits.map((v) => v.toFixed(0)).join(", ")} MiB; held ${f.heldMiB.toFixed(0)} MiB, peak ${f.peakMiB.toFixed(0)} MiB; live heap after a full GC ${f.liveHeapMiB.toFixed(0)} MiB (load ${loadBefore})`,
      );
    }
  }
}
