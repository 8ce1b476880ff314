// Exports each run as an OpenTelemetry trace over OTLP/HTTP, following the GenAI semantic
// conventions: the run is an `invoke_workflow` span, an `rlm` step an `invoke_agent` span, a model
// step a `chat` span, a tool step an `execute_tool` span, every other step (context operations,
// parallel, retry, checkpoint, final) an internal span under the step that encloses it. The
// budget, the worst-case estimate and what was spent are attributes of the run's span. Message
// content (prompts, replies, tool arguments and results) is left out unless the conventions' own
// switch, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, asks for it, and is masked then.
// A RunObserver (run/observer.ts): it sees the run's one event stream and its host calls. It never
// holds the run: `finished` starts the flush and returns; the flush is bounded (boundedExport.ts)
// and whoever prints the result awaits `settled` after it.

import { callUsage } from "../plan/modelCost";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import type { RunEvent } from "../run/events";
import type { CallInterceptor, ObservedReport, RunObserver, RunStart } from "../run/observer";
import type { SecretMask } from "../mask/secretMask";
import { canonicalTextWithin } from "../journal/requestKey";
import type { ApprovalEntry } from "../journal/approvals";
import { jsonByteLength } from "../run/outputMeasure";
import { BoundedExport, TRACE_FLUSH_DEADLINE_MS } from "./boundedExport";

export { TRACE_FLUSH_DEADLINE_MS } from "./boundedExport";

/** The conventions' switch for message content. */
export const CAPTURE_CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";

export interface RunTraceOptions {
  /** The OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces. */
  readonly url: string;
  /** The plan's name (its file name) for the workflow span. */
  readonly planName: string;
  readonly mask: SecretMask;
  readonly env?: NodeJS.ProcessEnv;
  /** The journal's run id, when the run is recorded: the trace and the journal name the same run. */
  readonly runId?: number;
  /** A trace that could not be exported, said once (the run is not changed by it). */
  readonly onNotice?: (message: string) => void;
  /** How long the trace may still be sent after the run ends; default TRACE_FLUSH_DEADLINE_MS. */
  readonly flushDeadlineMs?: number;
}

export class RunTrace implements RunObserver {
  private readonly provider: BasicTracerProvider;
  private readonly root: Span;
  private readonly open = new Map<string, Span>();
  private readonly capture: boolean;
  private readonly export: BoundedExport;
  /** Ends the wait for the flush at once (the caller's Ctrl-C). */
  private readonly interrupt = new AbortController();
  private flushed: Promise<void> | undefined;

  constructor(private readonly options: RunTraceOptions) {
    this.capture = /^true$/i.test((options.env ?? process.env)[CAPTURE_CONTENT_ENV] ?? "");
    this.export = new BoundedExport(options.url, options.flushDeadlineMs ?? TRACE_FLUSH_DEADLINE_MS);
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "rlm-plan" }),
      spanProcessors: [this.export.processor],
    });
    const tracer = this.provider.getTracer("rlm-plan");
    this.root = tracer.startSpan(`invoke_workflow ${options.planName}`, {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_workflow",
        "gen_ai.workflow.name": options.planName,
        ...(options.runId !== undefined ? { "rlm_plan.run.id": options.runId } : {}),
      },
    });
  }

  started(start: RunStart): void {
    const attrs: Record<string, number> = {};
    for (const [key, value] of Object.entries(start.budget)) attrs[`rlm_plan.budget.${key}`] = Number(value);
    for (const [key, value] of Object.entries(start.estimate)) attrs[`rlm_plan.estimate.${key}`] = Number(value);
    this.root.setAttributes(attrs);
  }

  event(event: RunEvent): void {
    const key = JSON.stringify(event.path);
    if (event.type === "step_started") {
      const span = this.provider.getTracer("rlm-plan").startSpan(
        spanName(event.operation),
        {
          kind: event.operation.startsWith("model(") ? SpanKind.CLIENT : SpanKind.INTERNAL,
          attributes: stepAttributes(event),
        },
        trace.setSpan(ROOT_CONTEXT, this.parentOf(event.path)),
      );
      this.open.set(key, span);
      return;
    }
    const span = this.open.get(key);
    if (!span) return;
    if (event.type === "step_finished") {
      this.open.delete(key);
      span.end();
    } else if (event.type === "step_failed") {
      this.open.delete(key);
      span.setAttribute("error.type", event.error.kind);
      span.setStatus({ code: SpanStatusCode.ERROR, message: `${event.error.phase}/${event.error.kind}` });
      span.end();
    } else if (event.type === "attempt_failed") {
      span.addEvent("rlm_plan.attempt_failed", {
        "rlm_plan.attempt": event.attempt,
        "error.type": event.error.kind,
        "rlm_plan.retrying": event.retrying,
      });
    }
  }

  readonly call: CallInterceptor = async (call, proceed) => {
    const span = this.open.get(JSON.stringify(call.step.path));
    const mask = this.options.mask;
    if (span && call.kind === "model") {
      span.updateName(`chat ${call.model ?? call.name}`);
      span.setAttributes({
        "gen_ai.provider.name": call.name,
        ...(call.model !== undefined ? { "gen_ai.request.model": call.model } : {}),
      });
      if (this.capture) span.setAttribute("gen_ai.input.messages", mask.mask(capturedText(call.request.messages)));
    }
    if (span && call.kind === "tool" && this.capture)
      span.setAttribute("gen_ai.tool.call.arguments", mask.mask(capturedText(call.arguments)));
    const reply = await proceed();
    if (span && call.kind === "model") {
      // Token counts are not content: set whether or not messages are captured.
      const usage = callUsage(reply, call.request, call.costing);
      span.setAttributes({
        "gen_ai.usage.input_tokens": usage.input_tokens,
        "gen_ai.usage.output_tokens": usage.output_tokens,
        "rlm_plan.usage.estimated": usage.estimated,
        ...(usage.cost !== null ? { "rlm_plan.cost": usage.cost } : {}),
      });
    }
    if (span && this.capture) {
      const text = mask.mask(capturedText(reply));
      span.setAttribute(call.kind === "model" ? "gen_ai.output.messages" : "gen_ai.tool.call.result", text);
    }
    return reply;
  };

  /**
   * A request for approval or its outcome (docs/approvals.md), as an event of the step's span:
   * the action's hash and the rule's terms, never its arguments.
   */
  approvalEntry(entry: ApprovalEntry): void {
    const span = this.open.get(entry.path) ?? this.root;
    const attrs: Record<string, string | number> = { "rlm_plan.approval.hash": entry.hash };
    if (entry.type === "request") {
      attrs["rlm_plan.approval.step"] = entry.body.step;
      attrs["rlm_plan.approval.capability"] = entry.body.capability;
      attrs["rlm_plan.approval.rule"] = entry.body.rule;
      attrs["rlm_plan.approval.quorum"] = entry.body.quorum;
    } else if (entry.type === "outcome") attrs["rlm_plan.approval.outcome"] = entry.body.outcome;
    span.addEvent(`rlm_plan.approval.${entry.type}`, attrs);
  }

  finished(report: ObservedReport): void {
    for (const span of this.open.values()) span.end();
    this.open.clear();
    const attrs: Record<string, string | number | boolean> = {
      "rlm_plan.stage": report.stage,
      "rlm_plan.transitions": report.transitions,
    };
    if (report.budget) {
      const b = report.budget;
      const r = report.remaining;
      const spent: [string, number, unknown][] = [
        ["steps", b.max_steps, r["steps"]],
        ["model_calls", b.max_model_calls, r["model_calls"]],
        ["tool_calls", b.max_tool_calls, r["tool_calls"]],
        ["context_ops", b.max_context_ops, r["context_ops"]],
        ["output_bytes", b.max_output_bytes, r["output_bytes"]],
      ];
      for (const [name, limit, left] of spent)
        if (typeof left === "number") attrs[`rlm_plan.spent.${name}`] = limit - left;
    }
    this.root.setAttributes(attrs);
    if (!report.ok) {
      const kind = String(report.error?.["kind"] ?? "error");
      this.root.setAttribute("error.type", kind);
      this.root.setStatus({ code: SpanStatusCode.ERROR, message: kind });
    }
    this.root.end();
    // Not awaited: the run's report (and its value) comes first; `settled` bounds the rest.
    this.export.flush(() => this.provider.shutdown());
    this.flushed = this.export.settle(this.interrupt.signal).then((end) => {
      if (!end.sent)
        this.options.onNotice?.(`warning: the run's trace was not exported to ${this.options.url}: ${end.reason}`);
    });
  }

  /**
   * Resolves once the trace is sent, or given up (its deadline passed, or `signal` aborted: then
   * at once), having said why once through onNotice. Await it after printing the result.
   */
  settled(signal?: AbortSignal): Promise<void> {
    const flushed = this.flushed ?? Promise.resolve();
    if (!signal) return flushed;
    const interrupt = () => this.interrupt.abort();
    if (signal.aborted) interrupt();
    else signal.addEventListener("abort", interrupt, { once: true });
    return flushed.finally(() => signal.removeEventListener("abort", interrupt));
  }

  /** The span of the nearest enclosing step still open, or the run's. */
  private parentOf(path: readonly (string | number)[]): Span {
    for (let k = path.length - 1; k > 0; k--) {
      const span = this.open.get(JSON.stringify(path.slice(0, k)));
      if (span) return span;
    }
    return this.root;
  }
}

/** A span's name from the step's operation as transitions write it: tool(x), model(p), context(search), rlm, ... */
function spanName(operation: string): string {
  const tool = /^tool\((.*)\)$/.exec(operation);
  if (tool) return `execute_tool ${tool[1]}`;
  if (operation.startsWith("model(")) return "chat";
  if (operation === "rlm") return "invoke_agent rlm";
  return operation;
}

function stepAttributes(event: RunEvent & { type: "step_started" }): Record<string, string | number> {
  const op = event.operation;
  const base: Record<string, string | number> = {
    "rlm_plan.step.path": JSON.stringify(event.path),
    "rlm_plan.step.operation": op,
    "rlm_plan.step.depth": event.depth,
    ...(event.bind !== null ? { "rlm_plan.step.bind": event.bind } : {}),
  };
  const tool = /^tool\((.*)\)$/.exec(op);
  if (tool)
    return {
      ...base,
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool[1] as string,
      "gen_ai.tool.type": "function",
    };
  if (op.startsWith("model(")) return { ...base, "gen_ai.operation.name": "chat" };
  if (op === "rlm") return { ...base, "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "rlm" };
  return base;
}

/** Captured content, or its size alone past the journal's limit (a 600 MB argument list is not an attribute). */
function capturedText(value: unknown): string {
  return canonicalTextWithin(value) ?? `[${jsonByteLength(value) ?? 0} bytes, not captured]`;
}
