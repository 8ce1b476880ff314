// Find references against golden files at cursor-marked fixtures (test/service/golden/references/):
// the locations with the declaration, then without it, in source order.

import { references } from "@rlm-plan/language-server/service/references";
import { cursorGoldens } from "./support/scenarios";

cursorGoldens("references", ({ plan, position, readable }) =>
  [
    "with the declaration:",
    readable(references(plan, position, true)),
    "without it:",
    readable(references(plan, position, false)),
  ].join("\n"),
);
