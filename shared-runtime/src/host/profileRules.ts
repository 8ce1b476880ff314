// The host profile's rules beyond its schema: capability terms and budget values by the runtime's
// own rules, input and result schemas that compile, MCP entries that say how to reach their server,
// no tool name offered twice, and paths that stay in the workspace (profilePaths.ts).

import type { ErrorObject } from "ajv";
import { hasOwn, isJsonObject, pointer, type JsonObject, type JsonPath } from "../json";
import { BUDGET_FIELDS, resolveBudget } from "../plan/budget";
import { analyzeCapability } from "../plan/capabilities";
import type { ProblemTarget } from "../plan/problems";
import { inputSchemaProblem } from "../plan/inputSchemas";
import { mcpTransportOf, type McpServerSpec } from "./mcp/spec";
import { approvalRuleErrors } from "./approvalRuleErrors";
import { profilePathErrors } from "./profilePaths";
import type { HostProfileError, Locator } from "./profileTypes";

/**
 * Capability terms and budget values, checked by the runtime's own rules where the schema passed,
 * and the paths it names held to the workspace of `file` (profilePaths.ts).
 */
export function ruleErrors(
  value: JsonObject,
  file: string,
  at: Locator,
  schemaFailures: readonly ErrorObject[],
): HostProfileError[] {
  const errors: HostProfileError[] = [];
  const failedUnder = (prefix: string) =>
    schemaFailures.some((e) => e.instancePath === prefix || e.instancePath.startsWith(`${prefix}/`));
  const capabilities = hasOwn(value, "capabilities") ? value.capabilities : undefined;
  if (Array.isArray(capabilities)) {
    capabilities.forEach((term, i) => {
      if (typeof term !== "string" || term === "") return;
      const problem = analyzeCapability(term);
      if (problem !== undefined) {
        errors.push({ ...at.path(["capabilities", i]), jsonPath: pointer(["capabilities", i]), message: problem });
      }
    });
  }
  // Each field on its own, so that a bad value is reported with the budget's other problems (an
  // unknown key beside it), not after they are fixed.
  const budget = hasOwn(value, "budget") ? value.budget : undefined;
  if (isJsonObject(budget)) {
    for (const field of BUDGET_FIELDS) {
      if (!hasOwn(budget, field) || failedUnder(`/budget/${field}`)) continue;
      const resolved = resolveBudget({ [field]: budget[field] });
      if (resolved.ok) continue;
      for (const problem of resolved.problems) {
        const path = ["budget", problem.field ?? field];
        errors.push({ ...at.path(path), jsonPath: pointer(path), message: problem.message });
      }
    }
  }
  errors.push(...toolEntryErrors(value, at, failedUnder));
  errors.push(...profilePathErrors(value, file, at, failedUnder));
  errors.push(...approvalRuleErrors(value, at, failedUnder));
  return errors;
}

/** Input schemas that compile, MCP entries that say how to reach the server, no plan name offered twice. */
function toolEntryErrors(value: JsonObject, at: Locator, failedUnder: (prefix: string) => boolean): HostProfileError[] {
  const errors: HostProfileError[] = [];
  const located = (path: JsonPath, message: string, target: ProblemTarget = "value"): HostProfileError => ({
    ...at.path(path, target),
    jsonPath: pointer(path),
    message,
  });
  const tools = hasOwn(value, "tools") && isJsonObject(value.tools) ? value.tools : undefined;
  for (const name of Object.keys(tools ?? {})) {
    const spec = tools![name];
    if (!isJsonObject(spec) || !hasOwn(spec, "inputSchema") || failedUnder(pointer(["tools", name]))) continue;
    const problem = inputSchemaProblem(spec.inputSchema);
    if (problem !== undefined) errors.push(located(["tools", name, "inputSchema"], problem));
  }
  for (const name of Object.keys(tools ?? {})) {
    const spec = tools![name];
    if (!isJsonObject(spec) || !hasOwn(spec, "returns") || failedUnder(pointer(["tools", name]))) continue;
    const problem = inputSchemaProblem(spec.returns);
    if (problem !== undefined)
      errors.push(located(["tools", name, "returns"], problem.replace("input schema", "result schema")));
  }
  if (hasOwn(value, "result") && !failedUnder("/result")) {
    const problem = inputSchemaProblem(value.result);
    if (problem !== undefined)
      errors.push(
        located(
          ["result"],
          problem.replace("an input schema", "a result schema").replace("the input schema", "the result schema"),
        ),
      );
  }
  const servers = hasOwn(value, "mcpServers") && isJsonObject(value.mcpServers) ? value.mcpServers : undefined;
  // Plan names a mapping gives, against the profile's tools and other mappings.
  const offered = new Map<string, string>(
    Object.keys(tools ?? {}).map((name) => [name, `tool ${JSON.stringify(name)}`]),
  );
  for (const server of Object.keys(servers ?? {})) {
    const spec = servers![server];
    if (!isJsonObject(spec) || failedUnder(pointer(["mcpServers", server]))) continue;
    const entry = spec as unknown as McpServerSpec;
    const transport = mcpTransportOf(entry);
    const at = (key: string) => ["mcpServers", server, key];
    if (transport === "stdio" && entry.command === undefined) {
      errors.push(
        located(
          ["mcpServers", server],
          `MCP server ${JSON.stringify(server)} needs a "command" (or a "url" with "type": "http")`,
          "key",
        ),
      );
    }
    if (transport === "http") {
      if (entry.url === undefined)
        errors.push(
          located(
            ["mcpServers", server],
            `MCP server ${JSON.stringify(server)} needs a "url" for "type": "http"`,
            "key",
          ),
        );
      for (const key of ["command", "args", "cwd", "env", "inheritEnv", "maxMessageBytes"]) {
        if (hasOwn(spec, key))
          errors.push(
            located(
              at(key),
              `"${key}" is for servers started over stdio; MCP server ${JSON.stringify(server)} is reached at its "url"`,
              "key",
            ),
          );
      }
    } else if (entry.url !== undefined) {
      errors.push(
        located(
          at("url"),
          `MCP server ${JSON.stringify(server)} is started with its "command": remove "url", or remove "command" to reach it over HTTP`,
          "key",
        ),
      );
    }
    for (const planName of Object.keys(entry.tools ?? {})) {
      const owner = `MCP server ${JSON.stringify(server)}`;
      const earlier = offered.get(planName);
      const prefix = planName.includes(".") ? planName.slice(0, planName.indexOf(".")) : undefined;
      if (earlier !== undefined) {
        errors.push(
          located(
            ["mcpServers", server, "tools", planName],
            `the tool name ${JSON.stringify(planName)} is already taken by ${earlier}: give it another name`,
            "key",
          ),
        );
      } else if (prefix !== undefined && prefix !== server && servers !== undefined && hasOwn(servers, prefix)) {
        errors.push(
          located(
            ["mcpServers", server, "tools", planName],
            `the tool name ${JSON.stringify(planName)} starts with the name of MCP server ${JSON.stringify(prefix)}: give it another name`,
            "key",
          ),
        );
      }
      offered.set(planName, owner);
    }
  }
  // A profile tool named like an MCP tool would be two tools under one name.
  for (const name of Object.keys(tools ?? {})) {
    const prefix = name.includes(".") ? name.slice(0, name.indexOf(".")) : undefined;
    if (prefix !== undefined && servers !== undefined && hasOwn(servers, prefix)) {
      errors.push(
        located(
          ["tools", name],
          `the tool name ${JSON.stringify(name)} starts with the name of MCP server ${JSON.stringify(prefix)}: rename the tool or the server`,
          "key",
        ),
      );
    }
  }
  return errors;
}
