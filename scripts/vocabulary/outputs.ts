// The generated vocabulary copies: each file, its text built from the AST's tables and
// formatted as the repository's prettier formats it. `npm run generate` writes them; a unit
// test regenerates them in memory and fails when a committed copy is stale.

import { join } from "node:path";
import * as prettier from "prettier";
import { grammar } from "./grammar";
import { planSchema } from "./planSchema";
import { snippetsFile } from "./snippets";
import { hostProfileValidator, mocksValidator } from "./validators";

export interface GeneratedFile {
  /** Relative to the repository's root, with "/". */
  readonly path: string;
  readonly text: () => string;
  /** Written as generated, not through prettier (ajv's standalone code; .prettierignore lists it). */
  readonly verbatim?: boolean;
}

export const GENERATED_FILES: readonly GeneratedFile[] = [
  { path: "shared-runtime/schemas/plan.schema.json", text: () => `${JSON.stringify(planSchema())}\n` },
  { path: "syntaxes/rlm-plan.tmLanguage.json", text: () => `${JSON.stringify(grammar())}\n` },
  { path: "snippets/rlm-plan.code-snippets", text: snippetsFile },
  { path: "shared-runtime/src/host/generated/hostProfileValidator.ts", text: hostProfileValidator, verbatim: true },
  { path: "shared-runtime/src/host/generated/mocksValidator.ts", text: mocksValidator, verbatim: true },
];

/** The repository's root, from this module's place in scripts/out/vocabulary/. */
export const REPOSITORY_ROOT = join(__dirname, "..", "..", "..");

/** A generated file's text as it is committed: formatted with the repository's prettier config. */
export async function generatedText(file: GeneratedFile, root = REPOSITORY_ROOT): Promise<string> {
  if (file.verbatim) return file.text();
  const filepath = join(root, file.path);
  const config = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(file.text(), { ...config, filepath });
}
