// The host profile's lock in the editor against golden files (test/service/golden/lock-diagnostics/):
// for a status of the profile against its lock (`//! lock-status: JSON`, what the core's
// profileLockStatus answers; no file is read), the diagnostics at each entry and the quick fix
// offered for them, with VS Code's command and with the server's own (other editors).

import { describe } from "node:test";
import type { ProfileLockStatus } from "@rlm-plan/core/host";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import { lockActions, lockDiagnostics } from "@rlm-plan/language-server/service/lockDiagnostics";
import { CodeActionKind, DiagnosticSeverity } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { HOST_FILE, HOST_URI } from "./support/analyzed";
import { goldenTests } from "./support/golden";
import { enumNames, readable } from "./support/readable";
import { FIXTURE_FOLDERS } from "./support/scenarios";

const FOLDER = "lock-diagnostics";
const enums = { severity: enumNames(DiagnosticSeverity), kind: enumNames(CodeActionKind) };

describe("the host profile against its lock: diagnostics and Update Lock (golden files)", () => {
  goldenTests(FOLDER, (fixture) => {
    const status = JSON.parse(fixture.directives["lock-status"] ?? "null") as ProfileLockStatus;
    const parsed = parseHostProfile(fixture.text, HOST_FILE);
    if (!parsed.ok) throw new Error(`${fixture.name}: the profile has errors: ${JSON.stringify(parsed.errors)}`);
    const document = TextDocument.create(HOST_URI, "json", 1, fixture.text);
    const options = { text: fixture.text, uri: HOST_URI, folders: FIXTURE_FOLDERS, enums };
    const diagnostics = lockDiagnostics(document, parsed.profile, status);
    const text = [
      `diagnostics:\n${readable(diagnostics, options)}`,
      `actions (VS Code):\n${readable(lockActions(HOST_URI, diagnostics, "rlmPlan.updateLock"), options)}`,
      `actions (other editors):\n${readable(lockActions(HOST_URI, diagnostics, "rlmPlan.server.updateLock"), options)}`,
    ].join("");
    return { ".expected.txt": text };
  });
});
