// Go to definition against golden files at cursor-marked fixtures (test/service/golden/definition/):
// the locations answered, in the plan (with the text they cover) or in the host profile in force.

import { definition } from "@rlm-plan/language-server/service/definition";
import { usableHostProfile } from "./support/analyzed";
import { cursorGoldens } from "./support/scenarios";

cursorGoldens("definition", ({ plan, position, host, readable }) =>
  readable(definition(plan, position, host && usableHostProfile(host.text))),
);
