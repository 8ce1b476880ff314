// The text of a new host profile for a plan (the `rlmPlan/hostProfileTemplate` request, behind
// VS Code's "Create Host Profile"): the capabilities, tools, providers and inputs the plan uses,
// with comments that say what to fill in. What a plan uses is asked of its semantic model
// (`model.needs()`: the one planNeeds, capabilities and context inputs included; the model's
// rows of worst case against the default budget): no walk, no copy of a plan rule, no cost
// arithmetic here, and none in the client, which only writes the text this answers.

import { analyzePlanText } from "@rlm-plan/core/analysis";
import { BUDGET_FIELDS, DEFAULT_BUDGET } from "@rlm-plan/core";
import { countNumber } from "@rlm-plan/core/plan";
import { isBuiltinToolName } from "@rlm-plan/core/host";
import type { HostProfileTemplateRequest } from "../protocol";

/** The request's answer: the profile's text for the plan `text` at `uri`, or why there is none. */
export function hostProfileTemplate(params: HostProfileTemplateRequest.Params): HostProfileTemplateRequest.Result {
  const result = templateNeeds(params.text);
  if (!result.ok) return result;
  const planName = decodeURIComponent(params.uri.replace(/[?#].*$/, "").replace(/^.*\//, "")) || "the plan";
  return { ok: true, text: hostProfileText(result.needs, planName), capabilities: result.needs.capabilities };
}

/** What a profile written for the plan grants, in the order the plan first uses each. */
export interface TemplateNeeds {
  readonly capabilities: readonly string[];
  readonly tools: readonly string[];
  readonly providers: readonly string[];
  /** Inputs read through context operations (texts, item lists). */
  readonly contextInputs: readonly string[];
  /** Inputs used as plain values (a prompt, a URL, ...). */
  readonly valueInputs: readonly string[];
  /** Budget fields the plan's worst case needs above the defaults. */
  readonly budget: Readonly<Record<string, number>>;
  /** "steps 3, tool calls 1, depth 1": the worst case, for a comment. */
  readonly worstCase: string;
}

export type NeedsResult =
  { readonly ok: true; readonly needs: TemplateNeeds } | { readonly ok: false; readonly message: string };

export function templateNeeds(text: string): NeedsResult {
  const analysis = analyzePlanText(text);
  const unreadable = analysis.problems.find((p) => p.phase === "parse" || p.phase === "normalize");
  const model = analysis.model;
  if (!analysis.plan || !model || unreadable) {
    return {
      ok: false,
      message: `the plan cannot be read completely${unreadable ? ` (${unreadable.message})` : ""}: fix it first, then create its host profile`,
    };
  }
  const uses = model.needs();
  // An input read as a context anywhere is declared as a context.
  const valueInputs = [...uses.inputs].filter((name) => !uses.contextInputs.has(name));
  const rows = model.rows(model.total, DEFAULT_BUDGET) ?? [];
  const budget: Record<string, number> = {};
  for (const row of rows) if (row.over) budget[row.field] = countNumber(row.estimate);
  const worstCase = rows
    .filter((row) => row.figure === "steps" || row.figure === "depth" || row.estimate > 0)
    .map((row) => `${row.label} ${row.estimate}`)
    .join(", ");
  return {
    ok: true,
    needs: {
      capabilities: uses.capabilities,
      tools: [...uses.tools],
      providers: [...uses.providers],
      contextInputs: [...uses.inputs].filter((name) => uses.contextInputs.has(name)),
      valueInputs,
      budget,
      worstCase,
    },
  };
}

/** A commented host profile (JSON with comments) that grants exactly what the plan needs. */
export function hostProfileText(needs: TemplateNeeds, planName: string): string {
  const lines: string[] = [];
  const q = (value: unknown): string => JSON.stringify(value);
  lines.push(
    `// Host profile for ${planName}, created by "RLM Plan: Create Host Profile". Plans in this`,
    "// folder and the folders below it run with what this file grants, and nothing else.",
    "// Relative paths are relative to this folder. Keys never go in this file: a provider names",
    '// the environment variable that holds its key (or use "RLM Plan: Set Provider API Key").',
    "{",
    `  "description": ${q(`Host for ${planName}`)},`,
    "  // Every capability the plan uses; a plan that needs one not listed here is invalid.",
    `  "capabilities": [${needs.capabilities.map(q).join(", ")}],`,
  );
  const budgetFields = Object.entries(needs.budget);
  lines.push(`  // The plan's worst case: ${needs.worstCase}.`);
  if (budgetFields.length === 0) {
    lines.push(
      `  // The default budget covers it (${defaultBudgetText()});`,
      "  // lower a field here to hold plans to less.",
      '  "budget": {},',
    );
  } else {
    lines.push(
      "  // These fields raise the default budget to the plan's worst case; the others keep their defaults.",
      `  "budget": { ${budgetFields.map(([field, value]) => `${q(field)}: ${value}`).join(", ")} },`,
    );
  }
  const sections: string[][] = [];
  if (needs.contextInputs.length + needs.valueInputs.length > 0) {
    const entries: string[] = [];
    for (const name of needs.contextInputs) {
      entries.push(
        `    // The plan reads ${name} with context operations. Put the text here, or read a file:`,
        `    // { "type": "text-file", "path": "data/${name}.txt" } (or "items-file" for JSON Lines).`,
        `    ${q(name)}: { "type": "text", "text": "Replace this with the text of ${name}.\\n" },`,
      );
    }
    for (const name of needs.valueInputs) {
      entries.push(
        `    // The plan uses ${name} as a value (any JSON).`,
        `    ${q(name)}: { "type": "value", "value": "replace with the value of ${name}" },`,
      );
    }
    sections.push([
      '  // Named inputs: what {"ref": "input", "name": ...} reads.',
      '  "inputs": {',
      ...dropLastComma(entries),
      "  }",
    ]);
  }
  if (needs.tools.length > 0) {
    const entries: string[] = [];
    for (const name of needs.tools) {
      if (isBuiltinToolName(name)) {
        entries.push(`    ${q(name)}: { "type": "builtin", "builtin": ${q(name)} },`);
      } else {
        entries.push(
          `    // A program run without a shell: JSON arguments on stdin, one JSON value on stdout.`,
          `    ${q(name)}: { "type": "command", "command": ["node", ${q(`tools/${fileName(name)}.js`)}], "timeoutMs": 30000 },`,
        );
      }
    }
    sections.push(["  // Trusted tools the plan calls.", '  "tools": {', ...dropLastComma(entries), "  }"]);
  }
  if (needs.providers.length > 0) {
    const entries: string[] = [];
    for (const name of needs.providers) {
      const openrouter = name.toLowerCase() === "openrouter";
      entries.push(
        `    // An OpenAI-compatible chat-completions endpoint; the key is read from ${keyVariable(name)}.`,
        `    ${q(name)}: {`,
        '      "type": "openai-chat",',
        `      "baseUrl": ${q(openrouter ? "https://openrouter.ai/api/v1" : "http://127.0.0.1:8080/v1")},`,
        `      "model": ${q(openrouter ? "openai/gpt-4o-mini" : "replace-with-the-model-name")},`,
        `      "apiKeyEnv": ${q(keyVariable(name))}`,
        "    },",
      );
    }
    sections.push(["  // Model providers the plan calls.", '  "providers": {', ...dropLastComma(entries), "  }"]);
  }
  // The budget line ends with a comma; the last section does not.
  if (sections.length === 0) lines[lines.length - 1] = (lines[lines.length - 1] as string).replace(/,$/, "");
  sections.forEach((section, i) => {
    const last = i === sections.length - 1;
    lines.push(...section.slice(0, -1), `${section[section.length - 1] as string}${last ? "" : ","}`);
  });
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

/** The environment variable a provider's key is read from: OPENROUTER_API_KEY. */
export function keyVariable(provider: string): string {
  const base = provider
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, "_")
    .replace(/^(?=[0-9])/, "_");
  return `${base}_API_KEY`;
}

function fileName(tool: string): string {
  return tool.replace(/[^A-Za-z0-9_.-]+/g, "-");
}

/** The last entry line of an object section loses its trailing comma (comments are skipped). */
function dropLastComma(entries: string[]): string[] {
  const result = [...entries];
  for (let i = result.length - 1; i >= 0; i--) {
    const line = result[i] as string;
    if (line.trimStart().startsWith("//")) continue;
    result[i] = line.replace(/,$/, "");
    break;
  }
  return result;
}

/** "max_steps 64, max_depth 4, ..., time_limit 10 s": the runtime's default budget. */
function defaultBudgetText(): string {
  return BUDGET_FIELDS.map((field) => `${field} ${DEFAULT_BUDGET[field]}${field === "time_limit" ? " s" : ""}`).join(
    ", ",
  );
}
