// The file paths a plan names through its host profile, against golden files, one per plan
// scenario (test/service/golden/plans/): on each input name the input's file, on each tool name
// the program its command (or its MCP server) runs, with the folder they are relative to. Which
// of them are files inside the workspace is the shell's (test/protocol/navigation.links.test.ts).

import { planPaths } from "@rlm-plan/language-server/service/writtenPaths";
import { hostProfileResult } from "./support/analyzed";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("written-paths", ({ plan, host, readable }) => {
  const result = host && hostProfileResult(host.text);
  return readable(planPaths(plan, result?.ok ? result.profile : undefined));
});
