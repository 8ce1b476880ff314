// Code lenses against golden files, one per plan scenario (test/service/golden/plans/): the lenses
// for a client without a run command of its own (the server's command), then for one with it.

import { codeLenses } from "@rlm-plan/language-server/service/codeLens";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("code-lens", ({ plan, readable }) =>
  [
    "a client that runs plans through the server:",
    readable(codeLenses(plan, false)),
    "a client with its own run command:",
    readable(codeLenses(plan, true)),
  ].join("\n"),
);
