// What `rlm-plan-debug-adapter` answers on its command line before it speaks the Debug Adapter
// Protocol: --help and --version print and exit 0, anything else is one line about the mistake
// (exit 2). With no argument, the adapter serves DAP over stdin/stdout, as clients start it.

import { readFileSync } from "node:fs";
import { join } from "node:path";

const ADAPTER_NAME = "rlm-plan-debug-adapter";

const ADAPTER_HELP = `usage: ${ADAPTER_NAME} [--help | --version]

The debug adapter of typed LLM plans (debug type "rlm-plan"): speaks the Debug Adapter Protocol
over stdin and stdout, for any DAP client (VS Code, nvim-dap, ...). Breakpoints on steps,
stepping into nested plans, bindings and budget, and replay of recorded runs: docs/debugging.md.
Started with no argument, it waits for the client's messages on stdin.

  -h, --help   show this help
  --version    show the version`;

/** What the command line asks: serve DAP, or print this text to stdout or stderr and exit with this status. */
export type AdapterCommand =
  | { readonly kind: "serve" }
  | { readonly kind: "print"; readonly stream: "stdout" | "stderr"; readonly text: string; readonly status: 0 | 2 };

export function adapterCommand(argv: readonly string[], version = adapterVersion): AdapterCommand {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: "serve" };
  const more = rest.length > 0 ? ` (and ${rest.length} more argument${rest.length === 1 ? "" : "s"})` : "";
  if ((first === "--help" || first === "-h") && more === "")
    return { kind: "print", stream: "stdout", text: `${ADAPTER_HELP}\n`, status: 0 };
  if (first === "--version" && more === "")
    return { kind: "print", stream: "stdout", text: `${ADAPTER_NAME} ${version()}\n`, status: 0 };
  const said = first.startsWith("-")
    ? `unknown option ${JSON.stringify(first)}`
    : `unexpected argument ${JSON.stringify(first)}`;
  return {
    kind: "print",
    stream: "stderr",
    text: `${ADAPTER_NAME}: ${said}${more}: it takes none, the client speaks DAP on stdin\nsee ${ADAPTER_NAME} --help\n`,
    status: 2,
  };
}

/** The version of the package this file was built into: out/commandLine.js -> package.json. */
function adapterVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
