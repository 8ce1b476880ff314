// `rlm-plan lock [--update] [--host FILE] [--json]`: pins what the host profile's tools are in
// rlmplan.lock.json beside it (the core's host/lock/ does the work, through the profile's session).
// Without a lock it writes one; with one that agrees it says so; with one that differs it prints
// the changes and writes nothing (exit 1) unless --update, the user's act of accepting them,
// which prints what it accepted. Every MCP server of the profile is started to be asked.

import { HOST_PROFILE_FILENAME, LOCK_FILENAME, openPlanSession, type PinOutcome } from "@rlm-plan/core/session";
import { hostErrorLines } from "./checkSession";
import { displayPath, jsonText, usageErrorText, type Io } from "./output";
import { readOptions } from "./options";
import { lineText } from "./guardedOutput";

export const LOCK_HELP = `usage: rlm-plan lock [--update] [--host FILE] [--json]

Pins the host profile's tools in ${LOCK_FILENAME} beside it, for review in a pull request: each
command tool's program (its path and SHA-256, and of any workspace script it names), each MCP
server's command or URL, the name and version it reports and a SHA-256 of each tool's name,
description, schemas and annotations (every server is started to be asked, then stopped), and
each provider's base URL and model. Runs, check --preflight, test and workers then refuse a tool
that drifted from the lock before their first side effect.

options:
  --update                accept what changed: rewrite the lock and print what was accepted
                          (without it, a lock that differs is left as it is, exit 1)
  --host FILE             the host profile; by default the nearest rlmplan.host.json in the
                          current folder or above
  --json                  the outcome as JSON on stdout
  -h, --help              show this help

exit status: 0 written or up to date, 1 drift not accepted (or a tool could not be read), 2 usage error`;

export async function lockCommand(argv: readonly string[], io: Io): Promise<number> {
  const options = readOptions(argv, { values: { "--host": "a FILE" }, flags: ["--update", "--json", "--help", "-h"] });
  if (typeof options === "string" || options.positionals.length > 0) {
    const message = typeof options === "string" ? options : `lock takes no PATH (use --host FILE)`;
    io.err(usageErrorText(message, "lock"));
    return 2;
  }
  if (options.flags.has("--help") || options.flags.has("-h")) {
    io.out(`${LOCK_HELP}\n`);
    return 0;
  }
  const host = options.values.get("--host");
  const opened = await openPlanSession({ ...(host !== undefined ? { hostProfile: host } : {}), mask: io.sink.mask });
  if (!opened.ok) {
    const { failure } = opened;
    if (failure.kind === "invalid_host_profile" || failure.kind === "invalid_mocks")
      io.err(hostErrorLines(failure.errors));
    else if (failure.kind === "no_host_profile")
      io.err(
        `rlm-plan: no host profile: there is no ${HOST_PROFILE_FILENAME} here or in any folder above; create one or pass --host FILE\n`,
      );
    else io.err(`rlm-plan: ${lineText(failure.message)}\n`);
    return 2;
  }
  const outcome = await opened.session.pinTools({ update: options.flags.has("--update") });
  if (options.flags.has("--json")) io.sink.stdout.json(jsonText(outcomeJson(outcome)));
  else say(outcome, io);
  return outcome.kind === "drifted" || outcome.kind === "failed" || outcome.kind === "invalid" ? 1 : 0;
}

function say(outcome: PinOutcome, io: Io): void {
  const file = displayPath(outcome.file);
  switch (outcome.kind) {
    case "written": {
      const { commandTools, mcpServers, providers } = outcome.lock;
      const tools = Object.values(mcpServers).reduce((sum, server) => sum + Object.keys(server.tools).length, 0);
      io.out(
        `wrote ${file}: ${count(Object.keys(commandTools).length, "command tool")}, ${count(Object.keys(mcpServers).length, "MCP server")} (${count(tools, "tool")}), ${count(Object.keys(providers).length, "provider")}\n`,
      );
      return;
    }
    case "unchanged":
      io.out(`${file} is up to date: nothing drifted\n`);
      return;
    case "updated":
      if (outcome.accepted.length === 0) io.out(`rewrote ${file}, which could not be read\n`);
      else io.out(`updated ${file}, accepting:\n${outcome.accepted.map((c) => `  ${lineText(c.text)}\n`).join("")}`);
      return;
    case "drifted":
      for (const change of outcome.changes) io.err(`rlm-plan: drift: ${lineText(change.text)}\n`);
      io.err(`rlm-plan: ${file} left as it is: review the changes, then accept them with rlm-plan lock --update\n`);
      return;
    case "failed":
      for (const problem of outcome.problems) io.err(`rlm-plan: ${lineText(problem)}\n`);
      io.err(`rlm-plan: ${file} not written: every tool must be read to pin it\n`);
      return;
    case "invalid":
      io.err(hostErrorLines(outcome.errors));
      io.err(`rlm-plan: ${file} is not a lock: rlm-plan lock --update writes it again\n`);
  }
}

function outcomeJson(outcome: PinOutcome): Record<string, unknown> {
  const base = { outcome: outcome.kind, file: displayPath(outcome.file) };
  switch (outcome.kind) {
    case "drifted":
      return { ...base, changes: outcome.changes.map((c) => c.text) };
    case "updated":
      return { ...base, accepted: outcome.accepted.map((c) => c.text) };
    case "failed":
      return { ...base, problems: outcome.problems };
    case "invalid":
      return {
        ...base,
        errors: outcome.errors.map((e) => ({
          file: displayPath(e.file),
          line: e.line,
          column: e.column,
          message: e.message,
        })),
      };
    default:
      return base;
  }
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
