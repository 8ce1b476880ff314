// Capabilities written as the reference writes them: `context(search)`, `tool(NAME)`,
// `model(NAME)`, `rlm`, `parallel`, `retry`, `checkpoint`. Matching is exact, on the parsed
// form, so `tool('Count Items')` and `tool(Count Items)` name the same tool.

import { CONTEXT_ACTIONS, type ContextActionType, type Step } from "./ast";

/** The capabilities written as a bare atom, one per operation that needs no argument. */
export const BARE_CAPABILITIES = ["rlm", "parallel", "retry", "checkpoint"] as const;

export type Capability =
  | { readonly kind: "context"; readonly action: ContextActionType }
  | { readonly kind: "tool"; readonly name: string }
  | { readonly kind: "model"; readonly name: string }
  | { readonly kind: (typeof BARE_CAPABILITIES)[number] };

/**
 * The capabilities every host may grant whatever it registers, in the reference's order: one
 * per context action, then the bare ones (tool(NAME) and model(NAME) depend on the host).
 */
export const FIXED_CAPABILITIES: readonly string[] = [
  ...CONTEXT_ACTIONS.map((action) => formatCapability({ kind: "context", action })),
  ...BARE_CAPABILITIES.map((kind) => formatCapability({ kind })),
];

/** The capability a step needs; `final` needs none. */
export function requiredCapability(step: Step): Capability | undefined {
  switch (step.op) {
    case "context":
      return { kind: "context", action: step.action.type };
    case "tool":
      return { kind: "tool", name: step.name };
    case "model":
      return { kind: "model", name: step.provider };
    case "rlm":
    case "parallel":
    case "retry":
    case "checkpoint":
      return { kind: step.op };
    case "final":
      return undefined;
  }
}

/**
 * formatCapability with its texts kept, one per distinct capability: a walk over 60,000 steps
 * calling `echo` formats (and hashes, to ask the granted set) one string, not 60,000.
 */
export function capabilityTexts(): (capability: Capability) => string {
  const byKind = new Map<string, Map<string, string>>();
  return (capability) => {
    const name = "name" in capability ? capability.name : "action" in capability ? capability.action : "";
    let texts = byKind.get(capability.kind);
    if (!texts) byKind.set(capability.kind, (texts = new Map()));
    let text = texts.get(name);
    if (text === undefined) texts.set(name, (text = formatCapability(capability)));
    return text;
  };
}

const SIMPLE_ATOM = /^[a-z][A-Za-z0-9_]*$/;

/** Prints a capability as the reference prints the term; names that need it are quoted. */
export function formatCapability(capability: Capability): string {
  switch (capability.kind) {
    case "context":
      return `context(${capability.action})`;
    case "tool":
    case "model":
      return `${capability.kind}(${atomText(capability.name)})`;
    default:
      return capability.kind;
  }
}

function atomText(name: string): string {
  if (SIMPLE_ATOM.test(name)) return name;
  return `'${name.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/**
 * The canonical key of a granted capability string, or undefined for text that is not a
 * capability term at all. Two strings grant the same capability when their keys are equal.
 */
export function capabilityKey(text: string): string | undefined {
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  if (open < 0) return SIMPLE_ATOM.test(trimmed) ? trimmed : undefined;
  if (!trimmed.endsWith(")")) return undefined;
  const functor = trimmed.slice(0, open).trim();
  if (!SIMPLE_ATOM.test(functor)) return undefined;
  const argument = unquoteAtom(trimmed.slice(open + 1, -1).trim());
  if (argument === undefined) return undefined;
  return `${functor}(${atomText(argument)})`;
}

/** A quoted atom's text, or a bare argument's; nested terms are not capabilities. */
function unquoteAtom(text: string): string | undefined {
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) {
    return text.slice(1, -1).replace(/\\(.)/g, "$1").replace(/''/g, "'");
  }
  return text.length > 0 && !/[()]/.test(text) ? text : undefined;
}

/** A granted list as a set of keys; non-strings in the list grant nothing. */
export function grantedKeys(granted: readonly unknown[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const entry of granted) {
    if (typeof entry !== "string") continue;
    const key = capabilityKey(entry);
    if (key !== undefined) keys.add(key);
  }
  return keys;
}

/**
 * Whether a host's granted list grants one capability: the one check for every front end that
 * shows grants (hover, completion, the planner's prompt), equal to the validator's.
 */
export function grantsCapability(granted: readonly unknown[], capability: Capability): boolean {
  return grantedKeys(granted).has(formatCapability(capability));
}

const BARE: readonly string[] = BARE_CAPABILITIES;
const FORMS = `context(ACTION), model(PROVIDER), tool(NAME), ${BARE_CAPABILITIES.slice(0, -1).join(", ")} or ${BARE_CAPABILITIES[BARE_CAPABILITIES.length - 1]}`;

/**
 * Undefined when `term` grants a capability; otherwise a message that says how to write one.
 * The one reading of a capability term that a host grants, for host profiles and the CLI's
 * `--capabilities` alike: `capabilityKey` accepts any term (an unknown one simply never
 * matches a step), this is stricter, so "paralel" or "context(serch)" is reported where it is
 * written.
 */
export function analyzeCapability(term: string): string | undefined {
  const key = capabilityKey(term);
  const shown = JSON.stringify(term);
  if (key === undefined) return `${shown} is not a capability term: write ${FORMS}`;
  const open = key.indexOf("(");
  if (open < 0) return BARE.includes(key) ? undefined : `${shown} is not a capability: write ${FORMS}`;
  const functor = key.slice(0, open);
  const argument = key.slice(open + 1, -1);
  switch (functor) {
    case "context":
      return (CONTEXT_ACTIONS as readonly string[]).includes(argument)
        ? undefined
        : `${shown} is not a context capability: the actions are ${CONTEXT_ACTIONS.join(", ")}`;
    case "tool":
    case "model":
      return undefined;
    default:
      return `${shown} is not a capability: write ${FORMS}`;
  }
}
