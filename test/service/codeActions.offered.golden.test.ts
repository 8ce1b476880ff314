// The code actions offered for each diagnostic of a plan against golden files, one per plan
// scenario (test/service/golden/plans/): per diagnostic (code and range), every action with its
// kind, preference and edit, as the client receives them; then the "Run plan" source action a
// client without code lenses asks for. (Applying each quick fix is codeActions.quickfix's.)

import { codeActions, type HostProfileFile } from "@rlm-plan/language-server/service/codeActions";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { CodeActionKind } from "vscode-languageserver-protocol";
import { onTheWire, usableHostProfile } from "./support/analyzed";
import { span } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("code-actions-offered", ({ plan, text, host, readable }) => {
  const file: HostProfileFile | undefined = host && { ...host, profile: usableHostProfile(host.text) };
  const diagnostics = onTheWire(planDiagnostics(plan, { hostProblemsAsErrors: false }));
  const sections = diagnostics.map((diagnostic) => {
    const actions = codeActions(plan, { diagnostics: [diagnostic], hostProfile: () => file });
    const offered = actions.map(({ diagnostics: _same, ...action }) => action);
    return `${String(diagnostic.code)} at ${span(diagnostic.range, text)}:\n${readable(offered)}`;
  });
  const run = codeActions(plan, {
    diagnostics: [],
    only: [CodeActionKind.Source],
    hostProfile: () => file,
    runCommand: "rlmPlan.run",
  });
  return [...sections, `source actions:\n${readable(run)}`].join("\n");
});
