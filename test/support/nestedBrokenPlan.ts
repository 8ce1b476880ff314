// Issue 8's scope example, shared by the hover and rename tests (the validator's is in
// test/unit/validate.scope.test.ts): a step inside a nested rlm that does not normalize (its
// tool name is a number) binds "x" there, and the outer plan refers to "x", which names nothing.

export const NESTED_BROKEN_PLAN = `{"steps": [
  {"op": "rlm", "plan": {"steps": [
    {"op": "tool", "name": 1, "args": [], "bind": "x"},
    {"op": "final", "value": {"ref": "var", "name": "INNER"}}
  ]}, "bind": "r"},
  {"op": "final", "value": {"ref": "var", "name": "OUTER"}}
]}`;

/** The plan with the cursor (`|`) at the start of the inner or the outer reference's name. */
export function nestedBrokenAt(where: "inner" | "outer"): string {
  return NESTED_BROKEN_PLAN.replace("INNER", where === "inner" ? "|x" : "x").replace(
    "OUTER",
    where === "outer" ? "|x" : "x",
  );
}
