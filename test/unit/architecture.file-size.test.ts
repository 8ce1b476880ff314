// Holds "no product file over about 400 lines without a reason at its top": every source file of
// the product packages (generated code aside) that is longer than 400 lines says why in its
// leading comment, on a line that starts `// Over 400 lines because`. Shown planted files first.

import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");
const FOLDERS = [
  "shared-runtime/src",
  "server/src",
  "cli/src",
  "debug-adapter/src",
  "client/src",
  "client/webview/src",
];
const LIMIT = 400;
const MARKER = "// Over 400 lines because ";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" || name === "node_modules" ? [] : sources(path);
    return /\.(?:ts|mts)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Why a text is too long without a reason, or undefined when it is fine. */
function offence(file: string, text: string): string | undefined {
  const lines = text.split("\n");
  const count = text.endsWith("\n") ? lines.length - 1 : lines.length;
  if (count <= LIMIT) return undefined;
  const leading: string[] = [];
  for (const line of lines) {
    if (!line.startsWith("//")) break;
    leading.push(line);
  }
  const reason = leading.find((line) => line.startsWith(MARKER));
  return reason && reason.length > MARKER.length + 10 ? undefined : `${file}: ${count} lines, no reason at its top`;
}

test("the check finds a long file without a reason, and passes one with a reason or short enough", () => {
  const body = "const x = 1;\n".repeat(LIMIT);
  assert.equal(offence("a.ts", `// A module.\n${body}`), "a.ts: 401 lines, no reason at its top");
  assert.equal(offence("b.ts", `// A module.\n${MARKER}it is one table.\n${body}`), undefined);
  // The reason counts only in the leading comment, and says something.
  assert.equal(
    offence("c.ts", `// A module.\n\n${MARKER}it is one table.\n${body}`),
    "c.ts: 403 lines, no reason at its top",
  );
  assert.equal(offence("d.ts", `${MARKER}\n${body}`), "d.ts: 401 lines, no reason at its top");
  assert.equal(offence("e.ts", body), undefined);
});

test("no product file is over 400 lines without a reason at its top", () => {
  const files = FOLDERS.flatMap((folder) => sources(join(root, folder)));
  assert.ok(files.length > 300, `the scan reads the packages' sources (${files.length})`);
  const found = files
    .map((path) => offence(relative(root, path).split(sep).join("/"), readFileSync(path, "utf8")))
    .filter((found): found is string => found !== undefined);
  assert.deepEqual(found, []);
});
