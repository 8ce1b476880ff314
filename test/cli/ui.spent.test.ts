// Money in `rlm-plan ui`, in headless Chromium, with runs the CLI made against the scripted chat
// server. The profile prices provider "a" at 0.1 EUR a token with maxTokens 10 and gives "b" no
// price: a call to "a" with a 2-byte literal prompt may use 2 + 8 input and 10 output tokens, 2 EUR
// at worst. Run 1 (one.rlmplan.json) reports 5+5 tokens (1 EUR), run 2 (same plan) 10+10 (2 EUR),
// run 3 (two.rlmplan.json: "a" 5+5, then "b" 3+3) has an unpriced call (its cost is unknown), run 4
// (none.rlmplan.json) calls no model (0). The Runs page's cost bounds, alone and with the other
// filters, keep exactly the runs they should, from the address too; an unknown cost is kept only
// when asked and said as such; a bad bound is a located error. A run's page shows tokens and money
// spent against the worst case recomputed from the recorded plan and profile, per run and per
// model step, "unknown (why)" where there is no figure; the HTML export shows the same. Says
// SKIPPED without Chromium.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { cliWorkspace, runCliAsync } from "../support/cliWorkspace";
import {
  CHROMIUM,
  screenshotsDir,
  seriousViolations,
  startUi,
  watchedPage as watched,
  type UiProcess,
} from "../support/uiProcess";

const SHOTS = screenshotsDir();
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });

describe(
  "rlm-plan ui: cost filters and the worst case",
  { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` },
  () => {
    const ws = cliWorkspace("ui-spent");
    let chat: ChatServer;
    let browser: Browser;
    let ui: UiProcess;
    const complaints: string[] = [];

    before(async () => {
      chat = await startChatServer();
      const provider = { type: "openai-chat", baseUrl: chat.baseUrl, model: "m", maxTokens: 10 };
      ws.write(
        "rlmplan.host.json",
        JSON.stringify({
          capabilities: ["model(a)", "model(b)"],
          currency: "EUR",
          providers: { a: { ...provider, price: { input_per_mtok: 100000, output_per_mtok: 100000 } }, b: provider },
        }),
      );
      ws.write(
        "one.rlmplan.json",
        JSON.stringify({ steps: [{ op: "model", provider: "a", prompt: "p1", bind: "x" }, final("x")] }, null, 2),
      );
      ws.write(
        "two.rlmplan.json",
        JSON.stringify(
          {
            steps: [
              { op: "model", provider: "a", prompt: "p1", bind: "x" },
              { op: "model", provider: "b", prompt: "p2", bind: "y" },
              final("y"),
            ],
          },
          null,
          2,
        ),
      );
      ws.write("none.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: "nothing" }] }));
      const usage = (n: number) => ({
        kind: "ok" as const,
        text: "t",
        usage: { prompt_tokens: n, completion_tokens: n },
      });
      chat.script(usage(5), usage(10), usage(5), usage(3));
      for (const plan of ["one", "one", "two", "none"]) {
        const run = await runCliAsync(ws.dir, ["run", `${plan}.rlmplan.json`]);
        assert.equal(run.code, 0, run.stderr);
      }
      ui = await startUi(ws.dir);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    });

    after(async () => {
      await browser?.close();
      await ui?.stop();
      await chat?.close();
    });

    const watchedPage = async (): Promise<Page> =>
      watched(await browser.newContext({ viewport: { width: 1280, height: 900 } }), complaints);

    /** The Runs page at `query`: each listed run's number and its tokens and cost. */
    async function listed(page: Page, query: string): Promise<string[][]> {
      await page.goto(`${ui.origin}/#/runs${query}`);
      await page.waitForSelector('main[data-ready="runs"]');
      await page.waitForSelector("#runs-list table, #runs-list p");
      return page.$$eval("#runs-list tbody tr", (trs) =>
        trs.map((tr) => {
          const cells = [...(tr as HTMLTableRowElement).cells];
          return [cells[0]?.textContent ?? "", cells[7]?.textContent ?? ""];
        }),
      );
    }

    test("the Runs page says each run's cost, an unknown one as unknown", async () => {
      const page = await watchedPage();
      await page.goto(ui.url);
      await page.waitForSelector('main[data-ready="runs"]');
      assert.deepEqual(await listed(page, ""), [
        ["Run 4", "no model call"],
        ["Run 3", "8+8, cost unknown (1 EUR + 1 unpriced call)"],
        ["Run 2", "10+10, 2 EUR"],
        ["Run 1", "5+5, 1 EUR"],
      ]);
      assert.equal(await page.textContent(".cost-filter legend"), "Cost (in EUR)");
      await page.close();
    });

    test("the cost bounds keep exactly the runs within them, from the form and from the address", async () => {
      const page = await watchedPage();
      await page.goto(ui.url);
      await page.waitForSelector('main[data-ready="runs"]');
      const numbers = async (query: string) => (await listed(page, query)).map((row) => row[0]);
      assert.deepEqual(await numbers("?min_cost=1"), ["Run 2", "Run 1"]);
      assert.deepEqual(await numbers("?min_cost=1&unknown_cost=keep"), ["Run 3", "Run 2", "Run 1"]);
      assert.deepEqual(await numbers("?max_cost=1"), ["Run 4", "Run 1"]);
      assert.deepEqual(await numbers("?min_cost=1.5&max_cost=2"), ["Run 2"]);
      assert.deepEqual(await numbers("?max_cost=0"), ["Run 4"]);
      // With the other filters: a plan, a search.
      assert.deepEqual(await numbers("?plan=one.rlmplan.json&max_cost=1.5"), ["Run 1"]);
      assert.deepEqual(await numbers("?q=two&max_cost=5&unknown_cost=keep"), ["Run 3"]);
      assert.deepEqual(await numbers("?q=two&max_cost=5"), []);
      assert.equal(await page.textContent("#runs-list p"), "No run matches.");

      // The address fills the form; the form writes the address.
      await listed(page, "?max_cost=1&unknown_cost=keep");
      assert.equal(await page.inputValue("input[name=max_cost]"), "1");
      assert.equal(await page.isChecked("input[name=unknown_cost]"), true);
      await page.fill("input[name=max_cost]", "");
      await page.fill("input[name=min_cost]", "2");
      await page.uncheck("input[name=unknown_cost]");
      await page.click("form.filters button");
      await page.waitForFunction(() => location.hash === "#/runs?min_cost=2");
      await page.waitForFunction(() => document.querySelectorAll("#runs-list tbody tr").length === 1);
      assert.deepEqual(
        await page.$$eval("#runs-list tbody tr td:first-child", (tds) => tds.map((td) => td.textContent)),
        ["Run 2"],
      );
      await page.screenshot({ path: join(SHOTS, "ui-runs-cost.png"), fullPage: true });
      await page.close();
    });

    test("runs list takes the same bounds, by the same rule", () => {
      const ids = (...args: string[]) => {
        const listed = ws.cli("runs", "list", "--json", ...args);
        assert.equal(listed.code, 0, listed.stderr);
        return (JSON.parse(listed.stdout) as { id: number }[]).map((run) => run.id);
      };
      assert.deepEqual(ids("--min-cost", "1"), [2, 1]);
      assert.deepEqual(ids("--min-cost", "1", "--unknown-cost"), [3, 2, 1]);
      assert.deepEqual(ids("--max-cost", "1"), [4, 1]);
      assert.deepEqual(ids("--min-cost", "1.5", "--max-cost", "2"), [2]);
      assert.deepEqual(ids("--plan", "one.rlmplan.json", "--max-cost", "1.5"), [1]);
      for (const [args, error] of [
        [["--min-cost", "abc"], "--min-cost needs an amount of money (0 or more, as 0.25), not abc"],
        [["--min-cost", "2", "--max-cost", "1"], "--min-cost (2) is more than --max-cost (1)"],
        [["--unknown-cost"], "--unknown-cost keeps runs of unknown cost beside --min-cost or --max-cost"],
      ] as const) {
        const refused = ws.cli("runs", "list", ...args);
        assert.equal(refused.code, 2);
        assert.match(refused.stderr, new RegExp(`^rlm-plan: ${error.replace(/[().+-]/g, "\\$&")}`, "m"));
      }
    });

    test("a bad cost bound is refused with what is wrong", async () => {
      for (const [query, error] of [
        ["min_cost=abc", "min_cost needs an amount of money (0 or more, as 0.25), not abc"],
        ["max_cost=-1", "max_cost needs an amount of money (0 or more, as 0.25), not -1"],
        ["min_cost=2&max_cost=1", "min_cost (2) is more than max_cost (1)"],
      ]) {
        const answer = await fetch(`${ui.origin}/api/runs?${query}`, { headers: { cookie: await cookie() } });
        assert.equal(answer.status, 400, query);
        assert.deepEqual(await answer.json(), { error }, query);
      }
      const page = await watchedPage();
      await page.goto(ui.url);
      await page.waitForSelector('main[data-ready="runs"]');
      const said = complaints.length;
      await listed(page, "?min_cost=2&max_cost=1");
      assert.equal(
        await page.textContent("#runs-list [role=alert]"),
        "The runs could not be read: min_cost (2) is more than max_cost (1)",
      );
      // The browser logs the refused request: that one, and nothing else, is expected here.
      assert.deepEqual(complaints.splice(said), [
        "console: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
      await page.close();
    });

    /** The Spent table's rows (tokens and money) and each step's worst case, as the page shows them. */
    async function spent(page: Page, run: number): Promise<{ rows: string[][]; steps: string[][] }> {
      await page.waitForSelector('main[data-ready="run"]');
      await page.waitForFunction((n) => document.querySelector("main h1")?.textContent?.startsWith(`Run ${n} `), run);
      const rows = await page.$$eval("section[aria-labelledby=spent-h] tbody tr", (trs) =>
        trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent ?? "")),
      );
      const steps = await page.$$eval("section[aria-labelledby=steps-h] tbody tr", (trs) =>
        trs.map((tr) => {
          const cells = [...(tr as HTMLTableRowElement).cells];
          return [cells[0]?.textContent ?? "", cells[7]?.textContent ?? "", cells[8]?.textContent ?? ""];
        }),
      );
      return { rows: rows.filter((row) => /tokens|cost|model calls/.test(row[0] ?? "")), steps };
    }

    test("a run's page shows tokens and money spent against the worst case, per run and per model step", async () => {
      const page = await watchedPage();
      await page.goto(ui.url);
      await page.goto(`${ui.origin}/#/run/2`);
      assert.deepEqual(await spent(page, 2), {
        rows: [
          ["model calls", "1", "1", "8"],
          ["input tokens", "10", "10", "–"],
          ["output tokens", "10", "10", "–"],
          ["cost", "2 EUR", "2 EUR", "–"],
        ],
        steps: [
          ["/steps/0", "10 in, 10 out, 2 EUR", "1 call, at most 10+10 tokens and 2 EUR"],
          ["/steps/1", "", ""],
        ],
      });
      await page.screenshot({ path: join(SHOTS, "ui-run-spent.png"), fullPage: true });

      await page.goto(`${ui.origin}/#/run/3`);
      const unpriced = 'provider "b" has no price in the host profile';
      assert.deepEqual(await spent(page, 3), {
        rows: [
          ["model calls", "2", "2", "8"],
          ["input tokens", "8", "20", "–"],
          ["output tokens", "8", "20", "–"],
          ["cost", "unknown (1 EUR + 1 unpriced call)", `unknown (${unpriced})`, "–"],
        ],
        steps: [
          ["/steps/0", "5 in, 5 out, 1 EUR", "1 call, at most 10+10 tokens and 2 EUR"],
          ["/steps/1", "3 in, 3 out", `1 call, at most 10+10 tokens; cost unknown (${unpriced})`],
          ["/steps/2", "", ""],
        ],
      });

      await page.goto(`${ui.origin}/#/run/4`);
      assert.deepEqual((await spent(page, 4)).rows, [["model calls", "0", "0", "8"]]);
      await page.close();
    });

    test("the HTML export shows the same worst case, and axe-core finds no serious violation", async () => {
      const out = join(ws.dir, "run-3.html");
      const exported = ws.cli("runs", "export", "3", "--format", "html", "-o", out);
      assert.equal(exported.code, 0, exported.stderr);
      const page = await watchedPage();
      await page.goto(`file://${out}`);
      const { rows } = await spent(page, 3);
      assert.deepEqual(rows[3], [
        "cost",
        "unknown (1 EUR + 1 unpriced call)",
        'unknown (provider "b" has no price in the host profile)',
        "–",
      ]);
      await page.close();

      const audit = await browser.newContext({ bypassCSP: true });
      const checked = await audit.newPage();
      await checked.goto(ui.url);
      for (const [route, which] of [
        ["#/runs?min_cost=1", "runs"],
        ["#/run/3", "run"],
      ] as const) {
        await checked.goto(`${ui.origin}/${route}`);
        await checked.waitForSelector(`main[data-ready="${which}"]`);
        assert.deepEqual(await seriousViolations(checked), [], route);
      }
      await audit.close();
      assert.deepEqual(complaints, []);
    });

    /** The token's cookie, as the server sets it on the printed URL. */
    async function cookie(): Promise<string> {
      const first = await fetch(ui.url, { redirect: "manual" });
      return (first.headers.get("set-cookie") ?? "").split(";")[0] as string;
    }
  },
);
