// Semantic tokens against golden files, one per plan scenario (test/service/golden/plans/):
// decoded, one row per token (`line:col length type [modifiers] ⟨text⟩`, 1-based), the whole
// document first, then the tokens a range request over the fourth to sixth lines answers; and
// the encoded data's length, which must be five numbers per token.

import assert from "node:assert/strict";
import { decodedTokens, legendIndexed, type DecodedToken } from "@rlm-plan/language-server/service/semanticTokens";
import { excerpt } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("semantic-tokens", ({ plan, text }) => {
  const row = (token: DecodedToken) => {
    const range = {
      start: { line: token.line, character: token.character },
      end: { line: token.line, character: token.character + token.length },
    };
    const modifiers = token.modifiers.length > 0 ? ` [${token.modifiers.join(", ")}]` : "";
    return `${token.line + 1}:${token.character + 1} ${token.length} ${token.type}${modifiers} ${excerpt(text, range)}`;
  };
  const all = decodedTokens(plan);
  assert.equal(legendIndexed(all).length, all.length, "one encoded token per decoded token");
  const range = { start: { line: 3, character: 0 }, end: { line: 6, character: 0 } };
  return ["whole document:", ...all.map(row), "", "range 4:1-7:1:", ...decodedTokens(plan, range).map(row), ""].join(
    "\n",
  );
});
