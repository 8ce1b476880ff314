// `rlm-plan ui`'s HTTP server (Node's http module): the page, its script and stylesheets, a JSON
// API over the core's journal queries (list, one run, a comparison, the test cases' histories) and a server-sent event
// stream that says when the journal changed, and the Approvals page's votes (the one POST, also
// held to the page's own origin). Every request needs the token: once in the URL
// (then kept in an HttpOnly, SameSite=Strict cookie, and the URL cleaned), else 403. Every answer
// carries a content security policy that admits no inline script or style, and every JSON body
// passes the secret mask, as the CLI's output does.

import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { GRAPH_STYLE } from "@rlm-plan/core/graph/render";
import {
  caseHistories,
  diffRecordedRuns,
  JournalStore,
  listRuns,
  parseRunId,
  costRangeOf,
  type RunFilter,
  type RunSummary,
  type ShownStatus,
} from "@rlm-plan/core/journal";
import type { SecretMask } from "@rlm-plan/core/secrets";
import type { ChildProcess } from "node:child_process";
import { cliChild, pendingApprovals, voteForm, voteFromPage } from "./approvalsView";
import { JournalWatch } from "./journalWatch";
import type { FleetView } from "./uiApi";
import { SERVED_CSP, servedPage } from "./pageHtml";
import { runView } from "./runView";
import { timeOf } from "../runs";

export const TOKEN_COOKIE = "rlm_plan_ui";
const STATUSES: readonly string[] = ["running", "interrupted", "ok", "failed", "cancelled"];
/** A comment line on the event stream this often keeps proxies and the browser from closing it. */
const HEARTBEAT_MS = 15_000;

export interface UiServerOptions {
  readonly journalDir: string;
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly mask: SecretMask;
  /** The folder holding ui.js and ui.css (uiAssets.ts finds it). */
  readonly assets: string;
  /** Where the server says what went wrong: the command's stderr (through its sink and mask). */
  readonly log: (line: string) => void;
  /** How this CLI is started (node and its script): an approved run is resumed by `rlm-plan run --resume`. */
  readonly cli: readonly string[];
  /** With --queue: the queue's status, read for the Fleet page. */
  readonly fleet?: { read(): Promise<FleetView> };
}

/** The largest vote body read; a bigger one is refused (413) unread. */
const MAX_BODY = 16 * 1024;

export interface UiServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const watch = new JournalWatch(options.journalDir);
  const streams = new Set<ServerResponse>();
  let store: JournalStore | undefined;
  // The journal may not exist yet: it is opened on the first request after it does.
  const journal = (): JournalStore | undefined => (store ??= JournalStore.openExisting(options.journalDir));
  const files = {
    "/ui.js": { type: "text/javascript", body: readFileSync(join(options.assets, "ui.js"), "utf8") },
    "/ui.css": { type: "text/css", body: readFileSync(join(options.assets, "ui.css"), "utf8") },
    "/graph.css": { type: "text/css", body: GRAPH_STYLE },
  } as const;
  const tokenDigest = digest(options.token);
  /** The origins the page is served from (set once listening): a vote from any other is refused. */
  const origins = new Set<string>();
  const resumed = new Set<ChildProcess>();
  const startCli = cliChild(options.cli);

  const server: Server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      // A bug answers 500 with no detail (a message may hold run content); the server goes on.
      if (!res.headersSent) send(res, 500, "text/plain", "internal error\n");
      else res.end();
      options.log(`rlm-plan ui: ${String((error as Error)?.message ?? error)}\n`);
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const given = url.searchParams.get("token");
    const cookie = cookieToken(req.headers.cookie);
    if (!allowed(given, tokenDigest) && !allowed(cookie, tokenDigest)) {
      send(res, 403, "text/plain", "403: this needs the token printed by rlm-plan ui (open the URL it printed)\n");
      return;
    }
    if (url.pathname === "/api/approvals/vote" && given === null) return vote(req, res);
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      send(res, 405, "text/plain", "405: read only\n");
      return;
    }
    if (given !== null) {
      // The token goes into the cookie and out of the address bar (and of the history).
      url.searchParams.delete("token");
      res.setHeader("Set-Cookie", `${TOKEN_COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`);
      res.setHeader("Location", `${url.pathname}${url.search}`);
      send(res, 303, "text/plain", "");
      return;
    }
    const path = url.pathname;
    if (path === "/" || path === "/index.html") return send(res, 200, "text/html; charset=utf-8", servedPage());
    if (path in files) {
      const file = files[path as keyof typeof files];
      return send(res, 200, `${file.type}; charset=utf-8`, file.body);
    }
    if (path === "/api/events") return events(res);
    if (path === "/api/runs") {
      const filter = runsFilter(url.searchParams);
      if (typeof filter === "string") return json(res, 400, { error: filter });
      const open = journal();
      const runs = open ? listRuns(open, filter) : [];
      return json(res, 200, search(runs, url.searchParams.get("q")));
    }
    if (path === "/api/fleet") {
      if (!options.fleet) return json(res, 404, { error: "no queue: start rlm-plan ui with --queue URL" });
      try {
        return json(res, 200, await options.fleet.read());
      } catch (error) {
        // The queue's own error (refused, no answer), never its password (the mask holds it).
        return json(res, 502, { error: `the queue could not be read: ${(error as Error).message}` });
      }
    }
    if (path === "/api/approvals") {
      const open = journal();
      return json(res, 200, open ? pendingApprovals(open) : []);
    }
    if (path === "/api/tests") {
      const open = journal();
      const label = url.searchParams.get("q")?.trim() || undefined;
      return json(res, 200, open ? caseHistories(open, label !== undefined ? { label } : {}) : []);
    }
    const one = /^\/api\/runs\/([^/]+)$/.exec(path);
    if (one) {
      const id = parseRunId(decodeURIComponent(one[1] as string));
      const open = journal();
      const view = id === undefined || !open ? undefined : await runView(open, id);
      return view ? json(res, 200, view) : json(res, 404, { error: `there is no run ${one[1]}` });
    }
    if (path === "/api/diff") {
      const [a, b] = [parseRunId(url.searchParams.get("a") ?? ""), parseRunId(url.searchParams.get("b") ?? "")];
      if (a === undefined || b === undefined)
        return json(res, 400, { error: "compare needs two run numbers, a and b" });
      const open = journal();
      if (!open) return json(res, 404, { error: "the journal holds no runs yet" });
      const diff = diffRecordedRuns(open, a, b);
      return "missing" in diff ? json(res, 404, { error: `there is no run ${diff.missing}` }) : json(res, 200, diff);
    }
    send(res, 404, "text/plain", "404: no such page\n");
  }

  /**
   * A vote from the Approvals page: POST only, with the token (its cookie) and, against a page of
   * another site making the browser send that cookie (CSRF), only from the page's own origin (the
   * Origin header, which a browser always sends on a POST and a page cannot forge) and only as
   * JSON (which another origin cannot send without a CORS preflight this server never answers).
   */
  async function vote(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return send(res, 405, "text/plain", "405: a vote is a POST\n");
    }
    const origin = req.headers.origin;
    if (origin === undefined || !origins.has(origin))
      return send(res, 403, "text/plain", "403: a vote is taken only from this server's own page\n");
    if (!/^application\/json(;|$)/.test(req.headers["content-type"] ?? ""))
      return json(res, 415, { error: "a vote is sent as JSON" });
    const text = await bodyText(req);
    if (text === undefined) return json(res, 413, { error: "the vote is too large" });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(res, 400, { error: "the vote is not JSON" });
    }
    const form = voteForm(body);
    if (typeof form === "string") return json(res, 400, { error: form });
    const open = journal();
    if (!open) return json(res, 404, { error: `there is no run ${form.run}` });
    const done = voteFromPage(open, form, (args) => {
      const child = startCli(args);
      resumed.add(child);
      child.once("exit", () => resumed.delete(child));
      return child;
    });
    if (!done.ok) return json(res, 409, { error: `cannot ${form.decision}: ${done.refusal}` });
    return json(res, 200, { said: done.said, resumed: done.resume });
  }

  /** The event stream: `runs` after each change of the journal, a comment now and then. */
  function events(res: ServerResponse): void {
    res.writeHead(200, { ...HEADERS, "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
    res.write("retry: 2000\n\n");
    streams.add(res);
    const stop = watch.onChange(() => res.write("event: runs\ndata: changed\n\n"));
    const beat = setInterval(() => res.write(": still here\n\n"), HEARTBEAT_MS);
    res.on("close", () => {
      stop();
      clearInterval(beat);
      streams.delete(res);
    });
  }

  function json(res: ServerResponse, status: number, value: unknown): void {
    send(res, status, "application/json; charset=utf-8", options.mask.mask(JSON.stringify(value)));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  origins.add(`http://${shownHost}:${port}`);
  if (options.host === "127.0.0.1" || options.host === "localhost") origins.add(`http://localhost:${port}`);
  return {
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    close: async () => {
      watch.close();
      for (const res of streams) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A run resumed from the page and still going is cancelled, as Ctrl-C cancels `run` (resumable).
      await Promise.all(
        [...resumed].map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once("exit", () => resolve());
              child.kill("SIGINT");
            }),
        ),
      );
      store?.close();
    },
  };
}

const HEADERS = {
  "Content-Security-Policy": SERVED_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...HEADERS, "Content-Type": type, "Cache-Control": "no-store" });
  res.end(body);
}

/** Compared as SHA-256 digests, in constant time: neither the token's length nor its bytes leak by timing. */
function allowed(given: string | null | undefined, expected: Buffer): boolean {
  return typeof given === "string" && timingSafeEqual(digest(given), expected);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === TOKEN_COOKIE) return rest.join("=");
  }
  return undefined;
}

/** The Runs page's filters as the core's RunFilter, or what is wrong with them. */
function runsFilter(params: URLSearchParams): RunFilter | string {
  const plan = params.get("plan") || undefined;
  const origin = params.get("origin") || undefined;
  const status = params.get("status") || undefined;
  if (status !== undefined && !STATUSES.includes(status)) return `status needs one of ${STATUSES.join(", ")}`;
  const sinceText = params.get("since") || undefined;
  const since = sinceText === undefined ? undefined : timeOf(sinceText);
  if (since === null) return `since needs a date or an age (30m, 2h, 7d), not ${sinceText}`;
  // The cost bounds (min_cost, max_cost: amounts in the runs' currency); unknown_cost=keep keeps
  // runs of unknown cost.
  const cost = costRangeOf(
    {
      ...(params.has("min_cost") ? { min: params.get("min_cost") as string } : {}),
      ...(params.has("max_cost") ? { max: params.get("max_cost") as string } : {}),
      keepUnknown: params.get("unknown_cost") === "keep",
    },
    { min: "min_cost", max: "max_cost" },
  );
  if (typeof cost === "string") return cost;
  return {
    ...(plan !== undefined ? { plan } : {}),
    ...(origin !== undefined ? { origin } : {}),
    ...(status !== undefined ? { status: status as ShownStatus } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
}

/** The runs whose number, plan, label or error holds `q` (case-insensitive). */
function search(runs: RunSummary[], q: string | null): RunSummary[] {
  const text = (q ?? "").trim().toLowerCase();
  if (text === "") return runs;
  return runs.filter((run) =>
    [String(run.id), run.plan, run.planFile ?? "", run.label ?? "", run.errorKind ?? "", run.status, run.origin].some(
      (field) => field.toLowerCase().includes(text),
    ),
  );
}

/** The request's body as text, or undefined past MAX_BODY (the rest left unread). */
async function bodyText(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
