// Host profiles (rlmplan.host.json) in the editor against golden files at cursor-marked fixtures
// (test/service/golden/host-profile-language/): the profile's diagnostics (the runtime loader's
// located errors, or MCP servers that did not list their tools: `//! unlisted: SERVER: MESSAGE`
// stands for the listing's failure, no server is started), then the hover and the completion
// items at the cursor (the open plans using the valid scenario's capabilities, or those of the
// folder's plan `//! open-plan: FILE` names), as the client receives them.

import { describe } from "node:test";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import { capabilitiesUsedBy } from "@rlm-plan/language-server/service/completion";
import { hostProfileDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { hostProfileCompletions, hostProfileHover } from "@rlm-plan/language-server/service/hostProfileLanguage";
import { CompletionItemKind, DiagnosticSeverity, InsertTextFormat } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzed, HOST_FILE, HOST_URI } from "./support/analyzed";
import { goldenFile, goldenFixture, goldenTests } from "./support/golden";
import { enumNames, readable } from "./support/readable";
import { FIXTURE_FOLDERS } from "./support/scenarios";

const FOLDER = "host-profile-language";
const enums = {
  severity: enumNames(DiagnosticSeverity),
  kind: enumNames(CompletionItemKind),
  insertTextFormat: enumNames(InsertTextFormat),
};

describe("host profiles: diagnostics, hover and completion (golden files)", () => {
  const valid = capabilitiesUsedBy(analyzed(goldenFixture("plans", "valid.input.rlmplan.json").text).plan);
  goldenTests(FOLDER, async (fixture) => {
    const openPlan = fixture.directives["open-plan"];
    const used = openPlan === undefined ? valid : capabilitiesUsedBy(analyzed(goldenFile(FOLDER, openPlan)).plan);
    if (!fixture.position) throw new Error(`${fixture.name}: mark the cursor with |`);
    const document = TextDocument.create(HOST_URI, "json", 1, fixture.text);
    const options = { text: fixture.text, uri: HOST_URI, folders: FIXTURE_FOLDERS, enums };
    const unlisted = /^([^:]+): (.*)$/.exec(fixture.directives.unlisted ?? "");
    const failures = new Map(unlisted ? [[unlisted[1] as string, unlisted[2] as string]] : []);
    const result = parseHostProfile(fixture.text, HOST_FILE);
    const diagnostics = hostProfileDiagnostics(document, result, HOST_FILE, failures);
    const hover = await hostProfileHover(document, fixture.position);
    const completion = await hostProfileCompletions(document, fixture.position, used);
    const text = [
      `diagnostics:\n${readable(diagnostics, options)}`,
      `hover:\n${readable(hover, options)}`,
      `completion:\n${readable(completion, options)}`,
    ].join("");
    return { ".expected.txt": text };
  });
});
