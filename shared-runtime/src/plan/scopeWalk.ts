// The scope rule, walked once: which binding a name means at each place of a plan. A plan sees
// what its enclosing plans bound before the step that owns it, plus what its own earlier steps
// bound; its own bindings never leak out. A name bound again shadows the earlier binding from
// there on (the validator reports the duplicate). Steps that did not normalize (collect-all
// mode) bind their name too, in their own plan and from their own place on, and are read as
// written, with the same field rules, so the editor's model covers half-typed text. The
// validator drives this walk; when asked, it records every plan's scope, binding and reference
// for the semantic model (model.ts).

import { ownValue, type JsonObject, type JsonPath } from "../json";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import { expressionFields, OPERATIONS, type Step } from "./ast";
import { NameTable } from "./nameTable";
import { isPlainObject } from "./normalize";

export interface ModelBinding {
  readonly name: string;
  /** The binding step's path; the name token is at `[...stepPath, "bind"]`. */
  readonly stepPath: JsonPath;
  /** The plan the step is in. */
  readonly planPath: JsonPath;
  /** The step's index in its plan's source `steps`. */
  readonly index: number;
  /** The step's `op` as written; undefined when it is not text. */
  readonly op: string | undefined;
  /** The normalized step; undefined for a step that did not normalize. */
  readonly step: Step | undefined;
}

export interface ModelReference {
  readonly name: string;
  /** The `{"ref": "var", ...}` object's path; the name token is at `[...path, "name"]`. */
  readonly path: JsonPath;
  /** The binding the name means there; undefined when nothing of that name is in scope. */
  readonly binding: ModelBinding | undefined;
  /** False inside a step that did not normalize: its own problems are reported instead. */
  readonly checked: boolean;
}

/** One plan's scope, kept after the walk. */
export interface PlanScope {
  readonly planPath: JsonPath;
  readonly parent: PlanScope | undefined;
  /** Source index, in the parent plan, of the step that owns this plan (0 for the root). */
  readonly ownerIndex: number;
  /** The bindings of this plan's own steps, in step order. */
  readonly bindings: readonly ModelBinding[];
}

/**
 * A normalized step as the walk met it, with the references of its own fields (not of its
 * sub-plans' steps): what `PlanModel.steps()` yields, so no later walk regroups references by path.
 */
export interface WalkedStep {
  readonly step: Step;
  readonly path: JsonPath;
  readonly scope: { readonly scope: PlanScope; readonly cut: number } | undefined;
  readonly references: readonly ModelReference[];
}

/** What a recording walk leaves for the model. */
export interface ScopeRecord {
  readonly scopes: readonly PlanScope[];
  readonly bindings: readonly ModelBinding[];
  readonly references: readonly ModelReference[];
  /**
   * Every normalized step in walk order (a step, its sub-plans' steps, the next step); left
   * out when the walk stopped early (first-problem mode), so it never holds part of a plan.
   */
  readonly steps?: readonly WalkedStep[];
}

const NO_REFERENCES: readonly ModelReference[] = [];

/**
 * A WalkedStep as the walk keeps it: the step, its plan's scope and where its references are in
 * the record's list (a step's own references are recorded one after another, nothing else in
 * between). Its path, scope position and references are made when asked: a 60,000-step plan
 * kept three objects a step for them, all outliving the young generation (bench/README.md, issue
 * 22 target 4, fourth pass).
 */
class RecordedStep implements WalkedStep {
  /** Index of the step's first reference in `all`; -1 while it has none. */
  start = -1;
  end = -1;

  constructor(
    readonly step: Step,
    private readonly plan: PlanScope | undefined,
    private readonly all: readonly ModelReference[],
  ) {}

  get path(): JsonPath {
    return this.step.path;
  }

  get scope(): WalkedStep["scope"] {
    const index = this.step.path[this.step.path.length - 1];
    return this.plan && typeof index === "number" ? { scope: this.plan, cut: index } : undefined;
  }

  get references(): readonly ModelReference[] {
    return this.start < 0 ? NO_REFERENCES : this.all.slice(this.start, this.end);
  }
}

interface OpenScope extends PlanScope {
  readonly bindings: ModelBinding[];
}

const KNOWN_OPS: ReadonlySet<string> = new Set<string>(OPERATIONS);

export class ScopeWalk {
  /** What each name means here (a NameTable: a flat plan binds thousands of names). */
  private readonly visible = new NameTable<ModelBinding>();
  /**
   * The name of every binding made and what it meant before, to restore when a plan ends: two
   * arrays rather than a pair a binding (60,000 pairs that outlive the young generation).
   */
  private readonly undoNames: string[] = [];
  private readonly undoBefore: (ModelBinding | undefined)[] = [];
  private readonly planPaths: JsonPath[] = [];
  private current: OpenScope | undefined;
  private readonly recorded: ScopeRecord | undefined;
  private readonly walked: WalkedStep[] = [];
  /** The step whose own fields are being walked: its references are kept with it. */
  private fields: RecordedStep | undefined;

  constructor(record: boolean) {
    this.recorded = record ? { scopes: [], bindings: [], references: [] } : undefined;
  }

  /** The record with every step the walk met: ask it only after a walk that went to the end. */
  get completeRecord(): ScopeRecord | undefined {
    return this.recorded && { ...this.recorded, steps: this.walked };
  }

  /**
   * A normalized step starts: references until its fields end (a sub-plan, a binding, the
   * next step) are its own.
   */
  step(step: Step): void {
    this.fields = undefined;
    if (!this.recorded) return;
    const walked = new RecordedStep(step, this.current, this.recorded.references);
    this.walked.push(walked);
    this.fields = walked;
  }

  get record(): ScopeRecord | undefined {
    return this.recorded;
  }

  lookup(name: string): ModelBinding | undefined {
    return this.visible.get(name);
  }

  /** Starts a plan owned by the step at `ownerIndex` of the current plan; returns its mark. */
  enter(planPath: JsonPath, ownerIndex: number): number {
    this.fields = undefined;
    this.planPaths.push(planPath);
    if (this.recorded) {
      const scope: OpenScope = { planPath, parent: this.current, ownerIndex, bindings: [] };
      (this.recorded.scopes as PlanScope[]).push(scope);
      this.current = scope;
    }
    return this.undoNames.length;
  }

  /** Ends the current plan: every name it bound means again what it meant before. */
  leave(mark: number): void {
    this.fields = undefined;
    if (mark === 0) {
      // Every name was bound since the mark: nothing was visible before it.
      this.visible.clear();
      this.undoNames.length = 0;
      this.undoBefore.length = 0;
    }
    while (this.undoNames.length > mark) {
      const name = this.undoNames.pop() as string;
      const before = this.undoBefore.pop();
      if (before) this.visible.set(name, before);
      else this.visible.delete(name);
    }
    this.planPaths.pop();
    if (this.current) this.current = this.current.parent as OpenScope | undefined;
  }

  bind(name: string, stepPath: JsonPath, op: string | undefined, step: Step | undefined): ModelBinding {
    const index = stepPath[stepPath.length - 1] as number;
    const planPath = this.planPaths[this.planPaths.length - 1] ?? [];
    this.fields = undefined;
    const binding: ModelBinding = { name, stepPath, planPath, index, op, step };
    this.undoNames.push(name);
    this.undoBefore.push(this.visible.get(name));
    this.visible.set(name, binding);
    if (this.recorded && this.current) {
      this.current.bindings.push(binding);
      (this.recorded.bindings as ModelBinding[]).push(binding);
    }
    return binding;
  }

  /** A variable reference at `path`: what it resolves to now (recorded when asked). */
  refer(name: string, path: JsonPath, checked: boolean): ModelBinding | undefined {
    const binding = this.visible.get(name);
    if (this.recorded) {
      const reference: ModelReference = { name, path, binding, checked };
      const references = this.recorded.references as ModelReference[];
      const fields = this.fields;
      if (fields) {
        if (fields.start < 0) fields.start = references.length;
        fields.end = references.length + 1;
      }
      references.push(reference);
    }
    return binding;
  }

  /**
   * A step that did not normalize, read as written: its expressions' references (recorded,
   * never reported), its sub-plans, then its binding, in the validator's order.
   */
  opaqueStep(value: JsonObject, path: JsonPath, depth = 0): void {
    this.fields = undefined;
    if (depth > MAX_JSON_DEPTH) return;
    const opValue = ownValue(value, "op");
    const op = typeof opValue === "string" ? opValue : undefined;
    const known = op !== undefined && (KNOWN_OPS.has(op) || op === "spawn_agent");
    // The vocabulary's answer: none for spawn_agent (literals only), every operation's for an unknown op.
    const fields = expressionFields(op);
    if (this.recorded) {
      for (const field of fields) {
        const expr = ownValue(value, field);
        if (expr !== undefined) this.opaqueExpression(expr, [...path, field], depth + 1);
      }
    }
    const index = path[path.length - 1] as number;
    if (!known || op === "rlm" || op === "retry") {
      const sub = ownValue(value, "plan");
      if (isPlainObject(sub)) this.opaquePlan(sub, [...path, "plan"], index, depth + 1);
    }
    if (!known || op === "parallel") {
      const branches = ownValue(value, "plans");
      if (Array.isArray(branches)) {
        branches.forEach((branch, i) => {
          if (isPlainObject(branch)) this.opaquePlan(branch, [...path, "plans", i], index, depth + 1);
        });
      }
    }
    const bind = ownValue(value, "bind");
    if (op !== "checkpoint" && op !== "final" && typeof bind === "string") this.bind(bind, path, op, undefined);
  }

  private opaquePlan(value: JsonObject, path: JsonPath, ownerIndex: number, depth: number): void {
    const steps = ownValue(value, "steps");
    if (!Array.isArray(steps)) return;
    const mark = this.enter(path, ownerIndex);
    steps.forEach((step, i) => {
      if (isPlainObject(step)) this.opaqueStep(step, [...path, "steps", i], depth + 1);
    });
    this.leave(mark);
  }

  /** The expression forms as the normalizer reads them: lists, references, objects, literals. */
  private opaqueExpression(value: unknown, path: JsonPath, depth: number): void {
    if (depth > MAX_JSON_DEPTH) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => this.opaqueExpression(item, [...path, i], depth + 1));
      return;
    }
    if (!isPlainObject(value)) return;
    const ref = ownValue(value, "ref");
    if (ref === undefined) {
      for (const key of Object.keys(value)) this.opaqueExpression(value[key], [...path, key], depth + 1);
    } else if (ref === "var") {
      const name = ownValue(value, "name");
      if (typeof name === "string") this.refer(name, path, false);
    } else if (ref === "field") {
      this.opaqueExpression(ownValue(value, "value"), [...path, "value"], depth + 1);
    }
  }
}
