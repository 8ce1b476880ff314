// The approval rules' checks beyond the schema (docs/approvals.md): each rule names exactly one
// tool, provider or capability, one the profile has; its quorum can be met by its approvers; its
// condition's schema compiles; a cost bound holds model calls only. Located at the offending node, worded to say what to do.

import { hasOwn, isJsonObject, pointer, type JsonObject, type JsonPath } from "../json";
import { inputSchemaProblem } from "../plan/inputSchemas";
import type { ProblemTarget } from "../plan/problems";
import type { HostProfileError, Locator } from "./profileTypes";

const TARGETS = ["tool", "provider", "capability"] as const;

/** Problems of `approvals` that the schema cannot say; rules the schema refused are skipped. */
export function approvalRuleErrors(
  value: JsonObject,
  at: Locator,
  failedUnder: (prefix: string) => boolean,
): HostProfileError[] {
  const rules = hasOwn(value, "approvals") ? value.approvals : undefined;
  if (!Array.isArray(rules)) return [];
  const errors: HostProfileError[] = [];
  const located = (path: JsonPath, message: string, target: ProblemTarget = "value"): HostProfileError => ({
    ...at.path(path, target),
    jsonPath: pointer(path),
    message,
  });
  const names = (key: string) => new Set(isJsonObject(value[key]) ? Object.keys(value[key]) : []);
  const tools = names("tools");
  const servers = names("mcpServers");
  const providers = names("providers");
  rules.forEach((rule, i) => {
    if (!isJsonObject(rule) || failedUnder(pointer(["approvals", i]))) return;
    const named = TARGETS.filter((key) => hasOwn(rule, key));
    if (named.length !== 1) {
      errors.push(
        located(
          ["approvals", i],
          named.length === 0
            ? `approval rule ${i} names no call: give it "tool", "provider" or "capability"`
            : `approval rule ${i} names ${named.map((k) => `"${k}"`).join(" and ")}: give it one of them (one rule per call it holds)`,
          named.length === 0 ? "value" : "key",
        ),
      );
    }
    const tool = typeof rule.tool === "string" ? rule.tool : undefined;
    if (tool !== undefined && !tools.has(tool) && !servers.has(tool.split(".")[0] ?? ""))
      errors.push(
        located(["approvals", i, "tool"], `there is no tool ${JSON.stringify(tool)} in "tools" or "mcpServers"`),
      );
    // Checked here rather than by a schema pattern, so the message says what a rule can hold.
    const capability = typeof rule.capability === "string" ? rule.capability : undefined;
    if (capability !== undefined && !/^(?:tool|model)\(.+\)$/.test(capability))
      errors.push(
        located(
          ["approvals", i, "capability"],
          `an approval rule holds calls: its capability is tool(NAME) or model(PROVIDER), not ${JSON.stringify(capability)}`,
        ),
      );
    const provider = typeof rule.provider === "string" ? rule.provider : undefined;
    if (provider !== undefined && !providers.has(provider))
      errors.push(
        located(["approvals", i, "provider"], `there is no provider ${JSON.stringify(provider)} in "providers"`),
      );
    // A tool call costs no money: a cost bound on a tool's rule would never hold it.
    if (hasOwn(rule, "cost_above") && (tool !== undefined || capability?.startsWith("tool(")))
      errors.push(
        located(
          ["approvals", i, "cost_above"],
          `"cost_above" holds model calls by their worst-case cost, and a tool call costs no money: name a "provider" (or model(PROVIDER)), or drop "cost_above"`,
          "key",
        ),
      );
    const approvers = Array.isArray(rule.approvers) ? rule.approvers.length : 0;
    const quorum = typeof rule.quorum === "number" ? rule.quorum : 1;
    if (quorum > approvers)
      errors.push(
        located(
          ["approvals", i, hasOwn(rule, "quorum") ? "quorum" : "approvers"],
          `the quorum ${quorum} cannot be met by ${approvers} approver${approvers === 1 ? "" : "s"}: name at least ${quorum} in "approvers" or lower "quorum"`,
        ),
      );
    const when = rule.when;
    if (isJsonObject(when) && hasOwn(when, "schema")) {
      const problem = inputSchemaProblem(when.schema);
      if (problem !== undefined)
        errors.push(
          located(
            ["approvals", i, "when", "schema"],
            problem.replace("an input schema", "a condition").replace("the input schema", "the condition"),
          ),
        );
    }
  });
  return errors;
}
