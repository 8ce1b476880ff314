// The "Test This Step" lenses against golden files, one per plan scenario (test/service/golden/plans/):
// one above each step for a client that runs plans itself, none for one that does not.

import { stepLenses } from "@rlm-plan/language-server/service/stepLenses";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("step-lenses", ({ plan, readable }) =>
  [
    "a client that runs plans through the server:",
    readable(stepLenses(plan, false)),
    "a client with its own run command:",
    readable(stepLenses(plan, true)),
  ].join("\n"),
);
