// Diagnostics of a mocks file (*.mocks.json) in any editor: what `run --mocks` would refuse
// (errors, located by the runtime's reader) and every mocked name the host profile in force
// registers nothing by, a warning with the nearest name (the core's rule, host/mockNames.ts).

import { type HostProfile, type HostProfileError, mockNameWarnings, parseMocks } from "@rlm-plan/core/host";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { DIAGNOSTIC_SOURCE, lspRange } from "./diagnostics";

export function mocksDiagnostics(document: TextDocument, file: string, profile: HostProfile | undefined): Diagnostic[] {
  const parsed = parseMocks(document.getText(), file);
  const diagnostic = (error: HostProfileError, severity: DiagnosticSeverity, code: string): Diagnostic => ({
    range: lspRange(document, { offset: error.offset, length: error.length }),
    severity,
    code,
    source: DIAGNOSTIC_SOURCE,
    message: error.message,
  });
  if (!parsed.ok) return parsed.errors.map((error) => diagnostic(error, DiagnosticSeverity.Error, "invalid_mocks"));
  return mockNameWarnings(parsed.mocks, profile ? { profile } : {}).map((warning) =>
    diagnostic(warning, DiagnosticSeverity.Warning, "unused_mock"),
  );
}
