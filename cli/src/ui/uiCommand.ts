// `rlm-plan ui [--port N] [--host H] [--journal DIR] [--no-open]`: the run browser, a local web
// app over the run journal (uiServer.ts). It listens on 127.0.0.1 unless --host says otherwise
// (and then warns), with a random token in the URL it prints, as Jupyter does; Ctrl-C stops it.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { JournalStore } from "@rlm-plan/core/journal";
import { addSessionSecrets } from "@rlm-plan/core/session";
import { FleetStatus } from "../queue/fleetStatus";
import { parseQueueUrl, QUEUE_URL_FORM, withPassword } from "../queue/queueUrl";
import { readOptions } from "../options";
import { usageErrorText } from "../output";
import { openRunsJournal } from "../runsStore";
import { openSink, type OutputSink } from "../sink";
import { MISSING_ASSETS, uiAssetsDir } from "./uiAssets";
import { startUiServer } from "./uiServer";

export const UI_HELP = `usage: rlm-plan ui [--port N] [--host H] [--journal DIR] [--queue URL] [--no-open]

A local web app over the run journal: every run (filtered, searched, live as runs happen), a run's
plan graph with each step's state (drawn as the editor draws it), its timeline of steps and calls,
its values and errors at FILE:LINE:COL, its forks; two runs compared side by side (runs diff);
test cases' verdicts over time (flaky ones first); the steps runs wait at for approval, approved or
denied there as runs approve|deny do.

  --port N        the port (default: a free one)
  --host H        the address to listen on (default 127.0.0.1; any other is reachable from
                  elsewhere, and said so)
  --journal DIR   the journal to show (found as rlm-plan runs finds it)
  --queue URL     a Fleet page for this queue (${QUEUE_URL_FORM}; a password
                  from RLM_PLAN_REDIS_PASSWORD): its workers, job counts and jobs
  --no-open       do not open the browser

It prints http://127.0.0.1:PORT/?token=TOKEN: every request needs the token (a new one each
start). Ctrl-C stops it.

exit status: 0 stopped, 2 usage error or no journal`;

interface UiIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
}

const LOOPBACK = ["127.0.0.1", "localhost", "::1"];

export async function uiCommand(argv: readonly string[], io: UiIo, signal?: AbortSignal): Promise<number> {
  const sink = openSink(io, { env: io.env ?? process.env });
  try {
    return await serve(argv, sink, io.env ?? process.env, signal);
  } finally {
    sink.end();
  }
}

async function serve(
  argv: readonly string[],
  io: OutputSink,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<number> {
  const usage = (message: string) => {
    io.stderr.write(usageErrorText(message, "ui"));
    return 2;
  };
  const options = readOptions(argv, {
    values: { "--port": "a port number", "--host": "an address", "--journal": "a DIR", "--queue": QUEUE_URL_FORM },
    flags: ["--no-open", "--help", "-h"],
    nonEmpty: ["--journal", "--host", "--queue"],
  });
  if (typeof options === "string") return usage(options);
  if (options.flags.has("--help") || options.flags.has("-h")) {
    io.stdout.write(`${UI_HELP}\n`);
    return 0;
  }
  if (options.positionals.length > 0) return usage(`ui takes no ${options.positionals[0]}`);
  const portText = options.values.get("--port") ?? "0";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) return usage(`--port needs a port number (0-65535), not ${portText}`);
  const host = options.values.get("--host") ?? "127.0.0.1";
  const queueText = options.values.get("--queue");
  const parsed = queueText === undefined ? undefined : parseQueueUrl(queueText);
  if (typeof parsed === "string") return usage(parsed);
  const address = parsed && withPassword(parsed, undefined, env);
  if (typeof address === "string") return usage(address);
  if (address?.password !== undefined) addSessionSecrets(io.mask, { env, clientValues: [address.password] });
  const assets = uiAssetsDir();
  if (assets === undefined) {
    io.stderr.write(`rlm-plan: ${MISSING_ASSETS}\n`);
    return 2;
  }
  const opened = openRunsJournal(options.values, io);
  if (typeof opened === "number") return opened;
  const journalDir = opened instanceof JournalStore ? opened.dir : opened.absent;
  if (opened instanceof JournalStore) opened.close();
  if (!LOOPBACK.includes(host))
    io.stderr.write(
      `rlm-plan: warning: listening on ${host}: anyone who can reach this address and has the URL's token can read every run in the journal\n`,
    );
  const token = randomBytes(32).toString("base64url");
  const fleet = address ? FleetStatus.open(address) : undefined;
  let server;
  try {
    server = await startUiServer({
      journalDir,
      host,
      port,
      token,
      mask: io.mask,
      assets,
      log: (line) => io.stderr.write(line),
      // This CLI as it was started: a run approved on the page is resumed by it.
      cli: [process.execPath, ...process.execArgv, process.argv[1] as string],
      ...(fleet ? { fleet } : {}),
    });
  } catch (error) {
    await fleet?.close();
    io.stderr.write(`rlm-plan: cannot listen on ${host}:${port}: ${(error as Error).message}\n`);
    return 2;
  }
  // The URL is what the user opens; the token in it is this server's, not a secret of a run.
  io.stdout.write(`rlm-plan ui: ${server.url}\n`);
  io.stderr.write("rlm-plan: Ctrl-C stops it\n");
  if (!options.flags.has("--no-open")) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.close();
  await fleet?.close();
  return 0;
}

/** Opens the URL in the desktop's browser, if there is one; nothing is said when there is none. */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No opener: the printed URL is there.
  }
}
