// Workspace symbols against golden files (test/service/golden/workspace-symbols/): each fixture
// is an open plan (its unsaved text; `//! open-as: FILE` opens it as that file of the workspace)
// searched with its `//! query:` (empty when absent) in the workspace folder `workspace/` there,
// whose plans are read from disk. The symbols answered, in order, as the client receives them.

import { join } from "node:path";
import { describe } from "node:test";
import { WorkspaceSymbols } from "@rlm-plan/language-server/service/workspaceSymbols";
import { SymbolKind } from "vscode-languageserver-protocol";
import { analyzed } from "./support/analyzed";
import { GOLDEN_ROOT, goldenFile, goldenTests } from "./support/golden";
import { enumNames, readable } from "./support/readable";
import { FIXTURE_FOLDERS } from "./support/scenarios";

const FOLDER = "workspace-symbols";
/** A limit no fixture comes near (the size limits have tests of their own). */
const MAX_BYTES = 8_000_000;
const WORKSPACE = join(GOLDEN_ROOT, FOLDER, "workspace");

describe("workspace symbols (golden files)", () => {
  const host = goldenFile("plans", "rlmplan.host.json");
  goldenTests(FOLDER, (fixture) => {
    const openAs = fixture.directives["open-as"];
    const open = analyzed(fixture.text, { host, ...(openAs ? { name: join(WORKSPACE, openAs) } : {}) });
    const symbols = new WorkspaceSymbols(() => undefined).search(
      WORKSPACE,
      fixture.directives.query ?? "",
      { analyzed: [open.plan], refused: [] },
      MAX_BYTES,
    );
    const text = readable(symbols, {
      text: open.text,
      uri: open.uri,
      folders: FIXTURE_FOLDERS,
      enums: { kind: enumNames(SymbolKind) },
    });
    return { ".expected.txt": text };
  });
});
