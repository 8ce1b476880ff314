// The host profile template (the `rlmPlan/hostProfileTemplate` request behind "Create Host
// Profile") against golden files, one per plan scenario (test/service/golden/plans/): the
// capabilities it grants, then the profile's text as written, or the refusal.

import { hostProfileTemplate } from "@rlm-plan/language-server/service/hostProfileTemplate";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("host-profile-template", ({ fixture, text }) => {
  const result = hostProfileTemplate({ uri: `file:///plans/${fixture.name}.rlmplan.json`, text });
  if (!result.ok) return `refused: ${result.message}\n`;
  return `capabilities: ${JSON.stringify(result.capabilities)}\n${result.text}`;
});
