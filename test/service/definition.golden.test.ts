// Go to definition against golden files at cursor-marked fixtures (test/service/golden/definition/):
// the locations answered, in the plan (with the text they cover) or in the host profile in force.

import { definition } from "@rlm-plan/language-server/service/definition";
import { usableHostProfile } from "./support/analyzed";
import { excerpt } from "./support/readable";
import { cursorGoldens } from "./support/scenarios";

cursorGoldens("definition", ({ plan, position, host, uri, readable }) => {
  const locations = definition(plan, position, host && usableHostProfile(host.text));
  const lines = locations.map((location) =>
    location.uri === uri || !host ? "" : `in the host profile: ${excerpt(host.text, location.range)}\n`,
  );
  return `${readable(locations)}${lines.join("")}`;
});
