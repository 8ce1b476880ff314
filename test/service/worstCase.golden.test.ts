// The worst case (the `rlmPlan/worstCase` request behind the status bar, and the code lens's
// title) against golden files, one per plan scenario (test/service/golden/plans/).

import { worstCase } from "@rlm-plan/language-server/service/worstCase";
import { HOST_FILE } from "./support/analyzed";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("worst-case", ({ plan, host, readable }) =>
  readable(worstCase(plan, host === undefined ? null : HOST_FILE)),
);
