// Mocks files (*.mocks.json) in the editor against golden files
// (test/service/golden/mocks-diagnostics/): what `run --mocks` would refuse, and the mocked names
// the host profile (plans/rlmplan.host.json) registers nothing by, as the client receives them.

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe } from "node:test";
import { mocksDiagnostics } from "@rlm-plan/language-server/service/mocksDiagnostics";
import { DiagnosticSeverity } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { usableHostProfile } from "./support/analyzed";
import { GOLDEN_ROOT, goldenFile, goldenTests } from "./support/golden";
import { enumNames, readable } from "./support/readable";
import { FIXTURE_FOLDERS } from "./support/scenarios";

const FOLDER = "mocks-diagnostics";

describe("mocks files: diagnostics (golden files)", () => {
  const profile = usableHostProfile(goldenFile("plans", "rlmplan.host.json"));
  goldenTests(FOLDER, (fixture) => {
    const file = join(GOLDEN_ROOT, FOLDER, `${fixture.name}.mocks.json`);
    const uri = pathToFileURL(file).href;
    const document = TextDocument.create(uri, "json", 1, fixture.text);
    const diagnostics = mocksDiagnostics(document, file, profile);
    const options = {
      text: fixture.text,
      uri,
      folders: FIXTURE_FOLDERS,
      enums: { severity: enumNames(DiagnosticSeverity) },
    };
    return { ".expected.txt": readable(diagnostics, options) };
  });
});
