// `rlm-plan runs export RUN --format html [-o FILE]`: one run as a single HTML file for a CI
// artifact or a review: the run browser's page with its script and stylesheet inline (admitted by
// their hashes in a CSP meta tag), the run's view as JSON, the plan graph drawn by the core's
// renderer. It opens from file:// with no network and no other file. `--format json` is the
// whole entry as JSON, as `runs export RUN` prints it.

import { writeFileSync } from "node:fs";
import { GRAPH_STYLE } from "@rlm-plan/core/graph/render";
import { JournalStore, parseRunId, runIdRefusal } from "@rlm-plan/core/journal";
import { shownPath } from "@rlm-plan/core/text";
import { shownFile } from "../guardedOutput";
import { readOptions } from "../options";
import { usageErrorText } from "../output";
import { journalReadError, openRunsJournal } from "../runsStore";
import { runsCommand } from "../runs";
import { openSink, type OutputSink } from "../sink";
import { standalonePage } from "./pageHtml";
import { runView } from "./runView";
import { MISSING_ASSETS, uiAssets } from "./uiAssets";

const FORMATS = ["json", "html"] as const;

interface ExportIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
}

/** Whether `rlm-plan runs ARGS` is an export this module writes (one given --format). */
export function isFormattedExport(args: readonly string[]): boolean {
  return args[0] === "export" && args.some((arg) => arg === "--format" || arg.startsWith("--format="));
}

/** Runs `runs export ... --format FORMAT` (the arguments after "export"). */
export async function runsExportCommand(argv: readonly string[], unguarded: ExportIo): Promise<number> {
  const sink = openSink(unguarded, { env: unguarded.env ?? process.env });
  try {
    return await exportWith(argv, sink, () =>
      runsCommand(["export", ...argv.filter((a, i) => !isFormatArg(argv, i))], unguarded),
    );
  } finally {
    sink.end();
  }
}

/** --format and its value, in either spelling. */
function isFormatArg(argv: readonly string[], i: number): boolean {
  const arg = argv[i] as string;
  return arg === "--format" || arg.startsWith("--format=") || (i > 0 && argv[i - 1] === "--format");
}

async function exportWith(
  argv: readonly string[],
  io: OutputSink,
  json: () => number | Promise<number>,
): Promise<number> {
  const usage = (message: string) => {
    io.stderr.write(usageErrorText(message, "runs"));
    return 2;
  };
  const options = readOptions(argv, {
    values: { "--journal": "a DIR", "--format": FORMATS.join(", "), "-o": "a FILE", "--output": "a FILE" },
    flags: [],
    nonEmpty: ["--journal", "-o", "--output"],
  });
  if (typeof options === "string") return usage(options);
  const format = options.values.get("--format");
  if (!FORMATS.includes(format as (typeof FORMATS)[number]))
    return usage(`--format needs one of ${FORMATS.join(", ")}`);
  const output = options.values.get("-o") ?? options.values.get("--output");
  if (format === "json") {
    if (output !== undefined) return usage("runs export --format json writes to stdout; -o is for --format html");
    return json();
  }
  if (options.positionals.length !== 1) return usage("runs export needs one RUN number");
  const idText = options.positionals[0] as string;
  const id = parseRunId(idText);
  if (id === undefined) {
    io.stderr.write(`rlm-plan: ${runIdRefusal("runs export", idText)}\n`);
    return 2;
  }
  const assets = uiAssets();
  if (!assets) {
    io.stderr.write(`rlm-plan: ${MISSING_ASSETS}\n`);
    return 2;
  }
  const opened = openRunsJournal(options.values, io);
  if (typeof opened === "number") return opened;
  if (!(opened instanceof JournalStore)) {
    io.stderr.write(`rlm-plan: no run journal in ${shownFile(shownPath(opened.absent))}\n`);
    return 1;
  }
  try {
    const view = await runView(opened, id);
    if (!view) {
      io.stderr.write(`rlm-plan: there is no run ${id} in ${shownFile(shownPath(opened.file))}\n`);
      return 1;
    }
    const html = io.mask.mask(standaloneHtml(assets, view, `Run ${id} · rlm-plan`));
    return writeHtml(io, html, output, `run ${id}`);
  } catch (error) {
    io.stderr.write(journalReadError(opened, error));
    return 2;
  } finally {
    opened.close();
  }
}

/** The page with the bundle's script and stylesheet (and the graph's) inline, carrying `data`. */
export function standaloneHtml(
  assets: { readonly script: string; readonly css: string },
  data: unknown,
  title: string,
  dataId?: string,
): string {
  // A `</script` in the bundle would end the inline block: written `<\/script`, the same in JavaScript.
  const script = assets.script.replace(/<\/script/gi, "<\\/script");
  return standalonePage(`${assets.css}\n${GRAPH_STYLE}`, script, data, title, dataId);
}

/** Writes the (masked) page to `output`, or to stdout without one; 0, or 2 when the file cannot be written. */
export function writeHtml(
  io: { readonly stdout: { write(text: string): unknown }; readonly stderr: { write(text: string): unknown } },
  html: string,
  output: string | undefined,
  what: string,
): number {
  if (output === undefined) {
    io.stdout.write(html);
    return 0;
  }
  try {
    writeFileSync(output, html);
  } catch (error) {
    io.stderr.write(`rlm-plan: cannot write ${shownFile(output)}: ${(error as Error).message}\n`);
    return 2;
  }
  io.stderr.write(`rlm-plan: wrote ${what} to ${shownFile(output)}\n`);
  return 0;
}
