// Hovers against golden files discovered from test/service/golden/hover/: each fixture
// `<name>.input.rlmplan.json` marks the cursor with `|` and is analysed under the folder's host
// profile (`//! host: none` for a plan without one, `//! host: FILE` for a profile of plans/, such
// as the restricting restricted.host.json); the hover's markdown, then the range it covers (an
// HTML comment, which no markdown viewer shows), must read as `<name>.expected.md`, or
// `<!-- no hover -->` where the server answers none. A new case is a new fixture:
// `UPDATE_GOLDEN=1 npm run test:service` writes its golden file, to review.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { hover } from "@rlm-plan/language-server/service/hover";
import { analyzed, onTheWire } from "./support/analyzed";
import { goldenFile, goldenTests } from "./support/golden";
import { span } from "./support/readable";

const FOLDER = "hover";

describe("hover (golden files)", () => {
  const host = goldenFile(FOLDER, "rlmplan.host.json");
  goldenTests(FOLDER, (fixture) => {
    assert.ok(fixture.position, `${fixture.name}: mark the cursor with |`);
    const named = fixture.directives.host;
    const options = named === "none" ? {} : { host: named === undefined ? host : goldenFile("plans", named) };
    const answer = onTheWire(hover(analyzed(fixture.text, options).plan, fixture.position));
    if (!answer) return { ".expected.md": "<!-- no hover -->\n" };
    // Every hover of this server is one markdown block: the golden is its value.
    const contents = answer.contents as { kind?: unknown; value?: unknown };
    assert.equal(contents.kind, "markdown", `${fixture.name}: the hover is one markdown block`);
    const range = answer.range ? `<!-- range: ${span(answer.range, fixture.text)} -->\n` : "";
    return { ".expected.md": `${String(contents.value)}\n${range}` };
  });
});
