// startRun, the one run pipeline: check before the host is built, build only what the plan
// uses (an unused missing input costs nothing; a used text file is indexed on first use), one
// rule for budget_remaining, host preflight before the first side effect, and execution errors
// that name (and locate) the failing step, with the rich event stream beside the transitions.

import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { parsePlanDocument } from "@rlm-plan/core/text/planDocument";
import { startRun } from "@rlm-plan/core/run/startRun";
import { type PlanNeeds } from "@rlm-plan/core/plan/needs";
import { type RunEvent } from "@rlm-plan/core";
import { type RunHost, type ToolHandler } from "@rlm-plan/core/run/host";
import { parseHostProfile, profileHost, type HostProfile } from "@rlm-plan/core/host";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-pipeline-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
function profileIn(profile: object, files: Record<string, string> = {}): HostProfile {
  const folder = join(dir, `w${++count}`);
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const file = join(folder, "rlmplan.host.json");
  const text = JSON.stringify(profile, null, 2);
  writeFileSync(file, text);
  const parsed = parseHostProfile(text, file);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return parsed.profile;
}

const countOf = (input: string, bind = "n") => ({
  op: "context",
  handle: { ref: "input", name: input },
  action: { type: "reduce", reducer: "count" },
  bind,
});
const FULL_BUDGET = { steps: 64, model_calls: 8, tool_calls: 16, context_ops: 32, output_bytes: 65536 };

describe("startRun: one rule for budget_remaining", () => {
  test("an invalid plan never started: its whole budget remains", async () => {
    const { outcome, stage } = await startRun({
      source: { kind: "value", value: { steps: [{ op: "tool", name: "t", args: 1, bind: "x" }] } },
      policy: { capabilities: ["tool(t)"], budget: { max_steps: 9 } },
      host: {},
    }).done;
    assert.equal(stage, "check");
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.budget_remaining, { ...FULL_BUDGET, steps: 9 });
  });

  test("zeros only when the budget itself is invalid", async () => {
    const { outcome } = await startRun({
      source: { kind: "value", value: { steps: [{ op: "final", value: 1 }] } },
      policy: { capabilities: [], budget: { max_steps: -1 } },
      host: {},
    }).done;
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.budget_remaining, {
      steps: 0,
      model_calls: 0,
      tool_calls: 0,
      context_ops: 0,
      output_bytes: 0,
    });
  });

  test("a host that cannot be set up reports its located problems, and the whole budget", async () => {
    const profile = profileIn({
      capabilities: ["tool(t)"],
      tools: { t: { type: "command", command: ["true"], cwd: "gone" } },
    });
    const report = await startRun({
      source: { kind: "value", value: { steps: [{ op: "final", value: 1 }] } },
      policy: { capabilities: [...profile.capabilities] },
      host: profileHost(profile),
    }).done;
    assert.equal(report.stage, "host");
    assert.ok(!report.outcome.ok);
    assert.equal(report.outcome.error.kind, "host_setup_failed");
    assert.deepEqual(report.outcome.budget_remaining, FULL_BUDGET);
    assert.deepEqual(
      report.hostErrors?.map((e) => [e.line, e.column, e.message]),
      [[11, 14, 'the working folder "gone" of tool "t" does not exist']],
    );
  });

  test("an input file the plan reads that cannot be read: a preflight refusal at the reference, and the whole budget", async () => {
    const profile = profileIn({
      capabilities: ["context(reduce)"],
      inputs: { h: { type: "text-file", path: "gone.txt" } },
    });
    const report = await startRun({
      source: { kind: "value", value: { steps: [countOf("h"), { op: "final", value: 1 }] } },
      policy: { capabilities: [...profile.capabilities] },
      host: profileHost(profile),
    }).done;
    assert.equal(report.stage, "preflight");
    assert.ok(!report.outcome.ok);
    assert.deepEqual(report.outcome.budget_remaining, FULL_BUDGET);
    const { error } = report.outcome;
    assert.deepEqual(
      [error.kind, error.input, error.path, error.problems],
      [
        "input_unavailable",
        "h",
        ["steps", 0, "handle", "name"],
        [
          {
            file: profile.file,
            line: 8,
            column: 15,
            message: 'cannot read "gone.txt" for input "h": no such file (ENOENT)',
          },
        ],
      ],
    );
  });
});

describe("startRun: check first, then build only what the plan uses", () => {
  test("an invalid plan is reported before the host is built (the factory is never called)", async () => {
    let built = 0;
    const report = await startRun({
      source: { kind: "value", value: { steps: [{ op: "final", value: { ref: "var", name: "nope" } }] } },
      policy: { capabilities: [] },
      host: () => {
        built++;
        return Promise.resolve({ ok: true, built: { host: {} } });
      },
    }).done;
    assert.deepEqual([report.stage, built], ["check", 0]);
  });

  test("the factory is told exactly which tools, providers and inputs the plan names", async () => {
    let needs: PlanNeeds | undefined;
    const plan = {
      steps: [
        { op: "tool", name: "t", args: { a: { ref: "input", name: "x" } }, bind: "a" },
        {
          op: "parallel",
          plans: [
            {
              steps: [
                { op: "model", provider: "p", prompt: { ref: "input", name: "y" }, bind: "m" },
                { op: "final", value: 1 },
              ],
            },
          ],
          bind: "b",
        },
        { op: "final", value: 1 },
      ],
    };
    await startRun({
      source: { kind: "value", value: plan },
      policy: { capabilities: ["tool(t)", "model(p)", "parallel"] },
      host: (n) => {
        needs = n;
        return Promise.resolve({ ok: false, errors: [] });
      },
    }).done;
    assert.deepEqual(needs && [[...needs.tools], [...needs.providers], [...needs.inputs]], [["t"], ["p"], ["x", "y"]]);
  });

  test("an unused input whose file is missing costs nothing", async () => {
    const profile = profileIn({ capabilities: [], inputs: { h: { type: "text-file", path: "gone.txt" } } });
    const { outcome } = await startRun({
      source: { kind: "value", value: { steps: [{ op: "final", value: 42 }] } },
      policy: { capabilities: [] },
      host: profileHost(profile),
    }).done;
    assert.deepEqual([outcome.ok, outcome.ok && outcome.value], [true, 42]);
  });

  test("a used text file is opened on first use, once, and not before", async () => {
    const profile = profileIn(
      { capabilities: ["context(reduce)", "tool(t)"], inputs: { h: { type: "text-file", path: "h.txt" } } },
      { "h.txt": "a\nb\nc" },
    );
    const order: string[] = [];
    const factory = profileHost(profile);
    const { outcome } = await startRun({
      source: {
        kind: "value",
        value: {
          steps: [
            { op: "tool", name: "t", args: 1, bind: "x" },
            countOf("h"),
            countOf("h", "m"),
            { op: "final", value: { ref: "var", name: "m" } },
          ],
        },
      },
      policy: { capabilities: [...profile.capabilities] },
      host: async (needs) => {
        const setup = await factory(needs);
        if (!setup.ok) return setup;
        const { host } = setup.built;
        const opener = host.lazyInputs?.get("h");
        assert.ok(opener, "the text file is a lazy input");
        const tool: ToolHandler = () => (order.push("tool"), 1);
        return {
          ok: true,
          built: {
            ...setup.built,
            host: {
              ...host,
              tools: new Map([["t", tool]]),
              lazyInputs: new Map([["h", () => (order.push("open h"), opener())]]),
            },
          },
        };
      },
    }).done;
    assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
    assert.equal(outcome.value, 3);
    assert.deepEqual(order, ["tool", "open h"]);
  });
});

describe("startRun: honest preflight, before the first side effect", () => {
  const toolFirst = (name: string) => ({
    steps: [
      { op: "tool", name: "side_effect", args: 1, bind: "a" },
      { op: "tool", name, args: 1, bind: "b" },
      { op: "final", value: 1 },
    ],
  });

  test("a command tool whose program is not on PATH: tool_unavailable, nothing ran", async () => {
    const profile = profileIn({
      capabilities: ["tool(side_effect)", "tool(ghost)"],
      tools: {
        side_effect: { type: "command", command: ["node", "-e", "1"] },
        ghost: { type: "command", command: ["rlm-plan-no-such-program"] },
      },
    });
    const report = await startRun({
      source: { kind: "value", value: toolFirst("ghost") },
      policy: { capabilities: [...profile.capabilities] },
      host: profileHost(profile),
    }).done;
    assert.equal(report.stage, "preflight");
    assert.ok(!report.outcome.ok);
    const { error, transitions } = report.outcome;
    assert.deepEqual([error.phase, error.kind, error.tool], ["preflight", "tool_unavailable", "ghost"]);
    assert.match(error.message, /its program "rlm-plan-no-such-program" was not found on PATH/);
    assert.deepEqual(transitions, []);
  });

  test("a relative program resolves against the profile's folder; a missing or non-executable one fails", async () => {
    const profile = profileIn(
      {
        capabilities: ["tool(side_effect)", "tool(ok)", "tool(missing)", "tool(plain)"],
        tools: {
          side_effect: { type: "builtin", builtin: "count_items" },
          ok: { type: "command", command: ["./ok.sh"] },
          missing: { type: "command", command: ["./missing.sh"] },
          plain: { type: "command", command: ["./plain.sh"] },
        },
      },
      { "ok.sh": "#!/bin/sh\necho 1\n", "plain.sh": "#!/bin/sh\necho 1\n" },
    );
    chmodSync(join(profile.dir, "ok.sh"), 0o755);
    chmodSync(join(profile.dir, "plain.sh"), 0o644);
    const kind = async (name: string) => {
      const report = await startRun({
        source: { kind: "value", value: toolFirst(name) },
        policy: { capabilities: [...profile.capabilities] },
        host: profileHost(profile),
      }).done;
      return report.outcome.ok ? "ran" : `${report.outcome.error.kind}: ${report.outcome.error.message}`;
    };
    assert.match(await kind("ok"), /^(ran|tool_error)/);
    assert.match(await kind("missing"), /^tool_unavailable: .*"\.\/missing\.sh" does not exist/);
    assert.match(await kind("plain"), /^tool_unavailable: .*"\.\/plain\.sh" is not executable/);
  });

  test("a provider whose key variable is unset: provider_key_missing names it, never a value", async () => {
    const profile = profileIn({
      capabilities: ["tool(side_effect)", "model(p)"],
      tools: { side_effect: { type: "builtin", builtin: "count_items" } },
      providers: {
        p: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "RLM_PLAN_TEST_UNSET_KEY" },
      },
    });
    const plan = {
      steps: [
        { op: "tool", name: "side_effect", args: [1], bind: "a" },
        { op: "model", provider: "p", prompt: "hi", bind: "b" },
        { op: "final", value: 1 },
      ],
    };
    const report = await startRun({
      source: { kind: "value", value: plan },
      policy: { capabilities: [...profile.capabilities] },
      host: profileHost(profile, { env: { RLM_PLAN_TEST_UNSET_KEY: "  " } }),
    }).done;
    assert.ok(!report.outcome.ok);
    assert.deepEqual(report.outcome.error, {
      phase: "preflight",
      kind: "provider_key_missing",
      provider: "p",
      variable: "RLM_PLAN_TEST_UNSET_KEY",
      message: 'provider "p" needs its key in the environment variable RLM_PLAN_TEST_UNSET_KEY, which is not set',
      path: ["steps", 1, "provider"],
    });
    assert.deepEqual(report.outcome.transitions, []);
  });
});

describe("startRun: failures name the failing step; events carry step identity", () => {
  const text = `{
  "steps": [
    {"op": "retry", "attempts": 2, "plan": {"steps": [
      {"op": "tool", "name": "flaky", "args": 1, "bind": "v"},
      {"op": "final", "value": {"ref": "var", "name": "v"}}
    ]}, "bind": "r"},
    {"op": "tool", "name": "broken", "args": 1, "bind": "x"},
    {"op": "final", "value": 1}
  ]
}`;
  const host = (): RunHost => {
    let calls = 0;
    return {
      tools: new Map<string, ToolHandler>([
        [
          "flaky",
          () => {
            if (++calls === 1) throw new Error("first call fails");
            return calls;
          },
        ],
        [
          "broken",
          () => {
            throw new Error("always");
          },
        ],
      ]),
    };
  };

  test("the error's path and its file:line:col; transitions unchanged; attempts in events", async () => {
    const events: RunEvent[] = [];
    const report = await startRun({
      source: { kind: "document", text },
      policy: { capabilities: ["retry", "tool(flaky)", "tool(broken)"] },
      host: host(),
      observers: [{ event: (e) => events.push(e) }],
    }).done;
    const { outcome, location } = report;
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.error.path, ["steps", 1]);
    assert.deepEqual(location && [location.line, location.column], [7, 5]);
    // The reference-compatible list: completed steps only, as before.
    assert.deepEqual(
      outcome.transitions.map((t) => [t.sequence, t.operation, t.bind]),
      [
        [1, "tool(flaky)", "v"],
        [2, "final", null],
        [3, "retry", "r"],
      ],
    );
    const summary = events.map((e) => {
      const at = e.path.join("/");
      switch (e.type) {
        case "attempt_failed":
          return `${e.type} ${at} ${e.attempt}/${e.attempts} retrying=${e.retrying} ${e.error.kind}@${e.error.path?.join("/")}`;
        case "step_failed":
          return `${e.type} ${at} ${e.error.kind}`;
        default:
          return `${e.type} ${at}${e.attempt ? ` attempt ${e.attempt}` : ""}`;
      }
    });
    assert.deepEqual(summary, [
      "step_started steps/0",
      "step_started steps/0/plan/steps/0 attempt 1",
      "step_failed steps/0/plan/steps/0 tool_error",
      "attempt_failed steps/0 1/2 retrying=true tool_error@steps/0/plan/steps/0",
      "step_started steps/0/plan/steps/0 attempt 2",
      "transition steps/0/plan/steps/0 attempt 2",
      "step_finished steps/0/plan/steps/0 attempt 2",
      "step_started steps/0/plan/steps/1 attempt 2",
      "transition steps/0/plan/steps/1 attempt 2",
      "step_finished steps/0/plan/steps/1 attempt 2",
      "transition steps/0",
      "step_finished steps/0",
      "step_started steps/1",
      "step_failed steps/1 tool_error",
    ]);
    // Events from a document carry the step's source range.
    const document = parsePlanDocument(text);
    const started = events.find((e) => e.type === "step_started" && e.path.join("/") === "steps/1");
    assert.deepEqual(started?.range, document.rangeOf(["steps", 1]));
    const failed = events.find((e) => e.type === "step_failed");
    assert.deepEqual(failed && "remaining" in failed && failed.remaining.tool_calls, 15);
  });
});
