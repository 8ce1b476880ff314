// The Variables view of a paused run: scopes (bindings, inputs, budget, run) and expandable
// JSON values, context handles shown with their metadata. References are only valid while the
// run stays paused; the session resets them on every resume.

import type { DebugProtocol } from "@vscode/debugprotocol";
import { Handles } from "@vscode/debugadapter";
import { ContextHandle, operationName, type ContextRunner, type StepPause } from "@rlm-plan/core/run";
import { type BudgetRemaining, type JsonValue, type PlanError } from "@rlm-plan/core";

type Children = () => Promise<DebugProtocol.Variable[]>;

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const PREVIEW_CHARS = 120;

/** Budget counters as the Variables view lists them, with the budget field each one is limited by. */
const COUNTERS: readonly (readonly [
  keyof BudgetRemaining,
  "max_steps" | "max_tool_calls" | "max_model_calls" | "max_context_ops" | "max_output_bytes",
])[] = [
  ["tool_calls", "max_tool_calls"],
  ["model_calls", "max_model_calls"],
  ["context_ops", "max_context_ops"],
  ["steps", "max_steps"],
  ["output_bytes", "max_output_bytes"],
];

export class VariableStore {
  private readonly handles = new Handles<Children>();

  constructor(private readonly contexts: () => ContextRunner | undefined) {}

  reset(): void {
    this.handles.reset();
  }

  /** `approval`: the entries of the "Pending approval" scope, for a step held for approval. */
  scopes(
    pause: StepPause,
    error: PlanError | undefined,
    approval?: () => [string, JsonValue][],
  ): DebugProtocol.Scope[] {
    const scope = (name: string, children: Children, presentationHint?: string): DebugProtocol.Scope => ({
      name,
      variablesReference: this.handles.create(children),
      expensive: false,
      ...(presentationHint ? { presentationHint } : {}),
    });
    return [
      ...(approval ? [scope("Pending approval", () => this.entries(approval(), () => undefined))] : []),
      scope("Bindings", () => this.entries([...pause.bindings], (name) => name), "locals"),
      scope("Budget", async () => budgetVariables(pause)),
      scope("Run", async () => this.runVariables(pause, error)),
      scope("Inputs", async () => [
        ...(await this.entries([...pause.inputs] as [string, JsonValue][], (name) => inputExpression(name))),
        // Shown before a step reads them (opening one indexes the file, which only a step does).
        ...pause.unreadInputs.map((name) => ({
          name,
          value: "text file, not read yet",
          type: "context",
          variablesReference: 0,
        })),
      ]),
    ];
  }

  async variables(reference: number): Promise<DebugProtocol.Variable[]> {
    const children = this.handles.get(reference);
    return children ? children() : [];
  }

  /** One value as the console and the Variables view show it. */
  async variable(name: string, value: JsonValue, evaluateName?: string): Promise<DebugProtocol.Variable> {
    if (value instanceof ContextHandle) return this.contextVariable(name, value, evaluateName);
    const expandable = value !== null && typeof value === "object" && Object.keys(value).length > 0;
    return {
      name,
      value: preview(value),
      type: jsonType(value),
      variablesReference: expandable ? this.handles.create(() => this.children(value, evaluateName)) : 0,
      ...(evaluateName ? { evaluateName } : {}),
    };
  }

  private entries(
    entries: [string, JsonValue][],
    evaluateName: (name: string) => string | undefined,
  ): Promise<DebugProtocol.Variable[]> {
    return Promise.all(entries.map(([name, value]) => this.variable(name, value, evaluateName(name))));
  }

  private children(value: JsonValue, parent: string | undefined): Promise<DebugProtocol.Variable[]> {
    if (Array.isArray(value)) return Promise.all(value.map((item, i) => this.variable(`[${i}]`, item)));
    const object = value as Record<string, JsonValue>;
    return Promise.all(
      Object.keys(object).map((key) =>
        this.variable(key, object[key] as JsonValue, parent && fieldExpression(parent, key)),
      ),
    );
  }

  /** A context handle: its kind and size in the value column, the metadata when expanded. */
  private async contextVariable(
    name: string,
    handle: ContextHandle,
    evaluateName?: string,
  ): Promise<DebugProtocol.Variable> {
    const outcome = await this.contexts()?.run(handle, { type: "peek", selector: { type: "metadata" } });
    const metadata =
      outcome?.ok && outcome.value !== null && typeof outcome.value === "object"
        ? (outcome.value as Record<string, JsonValue>)
        : undefined;
    const summary = metadata
      ? `context ${String(metadata.kind)}: ${String(metadata.bytes)} bytes, ${String(metadata.items)} ${metadata.kind === "text" ? "lines" : "items"}`
      : "context";
    const fields: [string, JsonValue][] = [["id", handle.id], ...(metadata ? Object.entries(metadata) : [])];
    return {
      name,
      value: summary,
      type: "context",
      variablesReference: this.handles.create(() => this.entries(fields, () => undefined)),
      ...(evaluateName ? { evaluateName } : {}),
    };
  }

  private async runVariables(pause: StepPause, error: PlanError | undefined): Promise<DebugProtocol.Variable[]> {
    const step = pause.step;
    const bind = "bind" in step ? ` -> ${step.bind}` : "";
    const list: DebugProtocol.Variable[] = [
      { name: "step", value: `${operationName(step)}${bind} at ${pause.path.join(".")}`, variablesReference: 0 },
    ];
    const attempt = [...pause.frames].reverse().find((f) => f.kind === "attempt");
    if (attempt?.kind === "attempt")
      list.push({ name: "attempt", value: `${attempt.attempt} of ${attempt.attempts}`, variablesReference: 0 });
    list.push(await this.variable("checkpoints", [...pause.checkpoints]));
    if (error) list.push(await this.variable("error", { ...error } as JsonValue));
    return list;
  }
}

function budgetVariables(pause: StepPause): DebugProtocol.Variable[] {
  const { limits, remaining } = pause.budget;
  const list: DebugProtocol.Variable[] = COUNTERS.map(([counter, limit]) => {
    const left = remaining[counter];
    return {
      name: counter,
      value: `${left} left of ${limits[limit]} (${limits[limit] - left} spent)`,
      variablesReference: 0,
    };
  });
  const seconds = (pause.elapsedMs / 1000).toFixed(1);
  list.push({ name: "time", value: `${seconds} s of ${limits.time_limit} s`, variablesReference: 0 });
  return list;
}

function inputExpression(name: string): string {
  return JSON.stringify({ ref: "input", name });
}

/** The console expression reading `key` of the value `parent` names. */
function fieldExpression(parent: string, key: string): string {
  if (NAME.test(key) && !parent.startsWith("{")) return `${parent}.${key}`;
  const base = parent.startsWith("{")
    ? JSON.parse(parent)
    : parent
        .split(".")
        .reduce<unknown>(
          (expr, part, i) => (i === 0 ? { ref: "var", name: part } : { ref: "field", value: expr, key: part }),
          undefined,
        );
  return JSON.stringify({ ref: "field", value: base, key });
}

function jsonType(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `list[${value.length}]`;
  return typeof value;
}

/** Compact JSON, cut at PREVIEW_CHARS. */
export function preview(value: JsonValue): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}
