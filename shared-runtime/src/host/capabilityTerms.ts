// Which capability strings a host profile may grant. The runtime's capabilityKey accepts any
// term it can read (an unknown one simply never matches a step); a profile is stricter, so a
// typo such as "paralel" or "context(serch)" is reported where it is written.

import { CONTEXT_ACTIONS } from "../plan/ast";
import { capabilityKey } from "../plan/capabilities";

const BARE = ["rlm", "parallel", "retry", "checkpoint"];
const FORMS = "context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry or checkpoint";

/** Undefined when `term` grants a capability; otherwise a message that says how to write one. */
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
