// Hover and completion in host profiles (rlmplan.host.json) for every editor, from the published
// schema the runtime validates profiles with: vscode-json-languageservice reads its titles,
// descriptions, defaults and enums, so what an editor shows is what `run` enforces.

import { HOST_PROFILE_SCHEMA } from "@rlm-plan/core/host";
import { countKeyTokens, MAX_JSON_DEPTH } from "@rlm-plan/core/text";
import { getLanguageService, type JSONDocument, type LanguageService } from "vscode-json-languageservice";
import {
  MarkupKind,
  type CompletionItem,
  type Hover,
  type MarkedString,
  type Position,
} from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { hostProfileCompletion } from "./completion";

const SCHEMA_URI = "rlm-plan:/schemas/host-profile.schema.json";

let service: LanguageService | undefined;

/** One service for the server's life: the schema is compiled once, on first use. */
function schemaService(): LanguageService {
  if (!service) {
    // No schema is ever fetched. The JSON service follows a file's own `"$schema"` before any
    // association, so whatever URI a profile names (a URL, the examples' relative path) is
    // answered with the host profile's schema: for rlmplan.host.json that schema always wins.
    const text = JSON.stringify(HOST_PROFILE_SCHEMA);
    service = getLanguageService({ schemaRequestService: () => Promise.resolve(text) });
    service.configure({
      validate: false,
      allowComments: true,
      schemas: [{ uri: SCHEMA_URI, fileMatch: ["*"], schema: HOST_PROFILE_SCHEMA as never }],
    });
  }
  return service;
}

/**
 * The service's parse of a profile, or undefined past the nesting any profile has: its parser
 * recurses per level, and a few thousand open brackets (a paste, a half-typed edit) overflow the
 * stack inside it. The core's allocation-free scan decides, with the limit plans have.
 */
function parsedProfile(json: LanguageService, document: TextDocument): JSONDocument | undefined {
  return countKeyTokens(document.getText()).maxDepth > MAX_JSON_DEPTH ? undefined : json.parseJSONDocument(document);
}

/** What a key means (its description, default and allowed values), or a value's meaning. */
export async function hostProfileHover(document: TextDocument, position: Position): Promise<Hover | null> {
  const json = schemaService();
  const parsed = parsedProfile(json, document);
  if (!parsed) return null;
  const found = await json.doHover(document, position, parsed);
  if (!found) return null;
  // The service answers with marked strings; every hover of this server is one markdown block.
  const parts = (Array.isArray(found.contents) ? found.contents : [found.contents]) as (
    MarkedString | { value: string }
  )[];
  const value = parts
    .map((part) => (typeof part === "string" ? part : part.value))
    .filter((text) => text !== "")
    .join("\n\n");
  return value === "" ? null : { contents: { kind: MarkupKind.Markdown, value }, range: found.range };
}

/** Keys the object at the cursor allows (with snippets for their values) and enum values. */
export async function hostProfileKeyCompletion(document: TextDocument, position: Position): Promise<CompletionItem[]> {
  const json = schemaService();
  const parsed = parsedProfile(json, document);
  if (!parsed) return [];
  const list = await json.doComplete(document, position, parsed);
  return list?.items ?? [];
}

/**
 * Completion in a host profile: capability terms first (ours: they know the plans and the
 * registries; `usedByPlans` is what the open plans under this profile use), then the schema's
 * keys and values; a label both offer is listed once.
 */
export async function hostProfileCompletions(
  document: TextDocument,
  position: Position,
  usedByPlans: readonly string[],
): Promise<CompletionItem[]> {
  const capabilities = hostProfileCompletion(document, position, [...new Set(usedByPlans)]);
  const labels = new Set(capabilities.map((item) => item.label));
  const schema = (await hostProfileKeyCompletion(document, position)).filter((item) => !labels.has(item.label));
  return [...capabilities, ...schema];
}
