// What a run's row in Plan Runs says on hover. A run listed from the run journal (the CLI's, a
// test case's, another window's) arrives as a summary without its host profile; the journal
// holds it, so the tooltip is resolved on hover (TreeDataProvider.resolveTreeItem) after the run
// is read whole, instead of saying "Host profile: none" for a run that had one. No `vscode` at
// run time here: the Markdown is built by the caller (runsView.ts) and tested in process.

import type { RunRecord } from "./runLog";

/** A tooltip paragraph: Markdown as written, or text the caller escapes. */
export type TooltipPart = { readonly markdown: string } | { readonly text: string };

/** How the view writes a file (a URI or a path) and a duration for people (runOutput.ts). */
export interface TooltipWords {
  readonly show: (uriOrPath: string) => string;
  readonly ms: (value: number) => string;
}

/** The paragraphs of a run's tooltip. */
export function runTooltipParts(record: RunRecord, { show, ms }: TooltipWords): TooltipPart[] {
  const plan = show(record.plan);
  const took = record.durationMs === undefined ? "" : ` · ${ms(record.durationMs)}`;
  const parts: TooltipPart[] = [
    { markdown: `**Run ${record.number}** of \`${plan}\`: ${record.status}\n\n` },
    { markdown: `Started ${new Date(record.startedAt).toLocaleString()}${took}\n\n` },
    { markdown: `Host profile: \`${record.hostProfile ? show(record.hostProfile) : "none"}\`\n\n` },
  ];
  if (record.journal)
    parts.push({ markdown: `Run ${record.journal.id} in the run journal \`${record.journal.dir}\`\n\n` });
  if (record.error) {
    parts.push({ markdown: `Error (${record.error.phase}/${record.error.kind}): ` }, { text: record.error.message });
  }
  return parts;
}

/** Whether a run's tooltip waits for the run to be read from the journal (its host profile is there). */
export function tooltipNeedsRecord(record: RunRecord): boolean {
  return record.journal?.loaded === false;
}

/** The tooltip on hover: a journal run is read whole first (`complete`), then described. */
export async function resolvedRunTooltip(
  record: RunRecord,
  complete: (record: RunRecord) => Promise<RunRecord>,
  words: TooltipWords,
): Promise<TooltipPart[]> {
  return runTooltipParts(tooltipNeedsRecord(record) ? await complete(record) : record, words);
}
