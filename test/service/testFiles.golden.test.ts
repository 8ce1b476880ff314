// Test files (`*.rlmplan.test.json`) in the language server, against golden files discovered
// from test/service/golden/test-files/: each fixture `<name>.input.rlmplan.test.json` is read as
// the test file `<name>.rlmplan.test.json` of that folder (its plans and host profile are the
// folder's files), and its diagnostics, code lenses and, where the fixture marks the cursor with
// `|`, hover and completion must read as `<name>.expected.json` (answers as they go on the wire).

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe } from "node:test";
import { testFileView } from "@rlm-plan/core/testing/testFileView";
import {
  testFileCompletion,
  testFileDiagnostics,
  testFileHover,
  testFileLenses,
} from "@rlm-plan/language-server/service/testFileLanguage";
import { TextDocument } from "vscode-languageserver-textdocument";
import { GOLDEN_ROOT, goldenTests } from "./support/golden";

const FOLDER = "test-files";

describe("test files: diagnostics, lenses, hover and completion (golden files)", () => {
  goldenTests(FOLDER, (fixture) => {
    const file = join(GOLDEN_ROOT, FOLDER, `${fixture.name}.rlmplan.test.json`);
    const document = TextDocument.create(pathToFileURL(file).href, "json", 1, fixture.text);
    const view = testFileView(fixture.text, file);
    const answers = {
      diagnostics: testFileDiagnostics(document, view),
      codeLenses: testFileLenses(document, view),
      ...(fixture.position
        ? {
            hover: testFileHover(document, view, fixture.position),
            completion: testFileCompletion(document, view, fixture.position),
          }
        : {}),
    };
    // The document's URI is the machine's path: the golden file names it by its file name.
    const text = JSON.stringify(answers, null, 2)
      .split(document.uri)
      .join(`file:///${FOLDER}/${fixture.name}.rlmplan.test.json`);
    return { ".expected.json": `${text}\n` };
  });
});
