// Hovers against golden files discovered from test/service/golden/hover/: each fixture
// `<name>.input.rlmplan.json` marks the cursor with `|` and is analysed under the folder's host
// profile (`//! host: none` for a plan without one, `//! host: FILE` for a profile of plans/, such
// as the restricting restricted.host.json); the hover's markdown must read as
// `<name>.expected.md`. A new case is a new fixture: `UPDATE_GOLDEN=1 npm run test:service`
// writes its golden file, to review.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { hover } from "@rlm-plan/language-server/service/hover";
import { analyzed, hoverValue } from "./support/analyzed";
import { goldenFile, goldenTests } from "./support/golden";

const FOLDER = "hover";

describe("hover (golden files)", () => {
  const host = goldenFile(FOLDER, "rlmplan.host.json");
  goldenTests(FOLDER, (fixture) => {
    assert.ok(fixture.position, `${fixture.name}: mark the cursor with |`);
    const named = fixture.directives.host;
    const options = named === "none" ? {} : { host: named === undefined ? host : goldenFile("plans", named) };
    const value = hoverValue(hover(analyzed(fixture.text, options).plan, fixture.position));
    assert.ok(value !== undefined, `${fixture.name}: no hover at the cursor`);
    return { ".expected.md": `${value}\n` };
  });
});
