// Diagnostics against golden files, one per plan scenario (test/service/golden/plans/): every
// diagnostic of the plan as the client receives it (code, severity, range with the text it covers,
// message, related information and data), in the order the server publishes them.

import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { DiagnosticSeverity, DiagnosticTag } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

const enums = { severity: enumNames(DiagnosticSeverity), tags: enumNames(DiagnosticTag) };

scenarioGoldens("diagnostics", ({ plan, readable }) => {
  const warnings = planDiagnostics(plan, { hostProblemsAsErrors: false });
  const errors = planDiagnostics(plan, { hostProblemsAsErrors: true });
  const promoted = errors.filter((d, i) => d.severity !== warnings[i]?.severity).map((d) => d.code);
  return `${readable(warnings, { enums })}\nwith hostProblemsAsErrors, errors instead of warnings: ${readable(promoted)}`;
});
