// Golden tests discovered from a folder of test/service/golden/: each fixture `<name>.input.<ext>`
// yields one test, and what the test produces is compared with its sibling golden files
// `<name>.expected.<ext>`. A fixture marks the cursor with `|` and may start with directives,
// `//! key: value` lines the test reads and the document never sees. Other files in the folder
// (a host profile, say) are shared by its fixtures. `UPDATE_GOLDEN=1` writes the golden files
// instead of comparing (review the diff before committing). A folder may take its fixtures from
// another (`{ inputs: "plans" }`): the document-wide features share the scenarios of plans/.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import type { Position, Range } from "vscode-languageserver-protocol";
import { fixture } from "../../protocol/support/lspClient";

/** The source folder (tests run from test/out/service/support). */
export const GOLDEN_ROOT = join(__dirname, "..", "..", "..", "service", "golden");

/** How to write or refresh golden files, for failure messages. */
export const UPDATE_COMMAND = "UPDATE_GOLDEN=1 npm run test:service";

const DIRECTIVE = /^\/\/! ([A-Za-z][\w-]*): (.*)$/;

export interface GoldenFixture {
  /** The fixture's name: its file name before `.input.`. */
  readonly name: string;
  /** The document: the file without its directives and cursor mark. */
  readonly text: string;
  /** Where the `|` was, when the fixture marks one. */
  readonly position: Position | undefined;
  /** The `//! key: value` lines at its top. */
  readonly directives: Readonly<Record<string, string>>;
}

/** A shared file of a golden folder, as text. */
export function goldenFile(folder: string, file: string): string {
  return readFileSync(join(GOLDEN_ROOT, folder, file), "utf8");
}

/** The fixture `<name>.input.<ext>` of a golden folder, read. */
export function goldenFixture(folder: string, file: string): GoldenFixture {
  const lines = goldenFile(folder, file).split("\n");
  const directives: Record<string, string> = {};
  let first = 0;
  for (; first < lines.length; first++) {
    const match = DIRECTIVE.exec(lines[first] ?? "");
    if (!match) break;
    directives[match[1] as string] = match[2] as string;
  }
  const body = lines.slice(first).join("\n");
  const marked = body.includes("|") ? fixture(body) : undefined;
  return {
    name: file.slice(0, file.indexOf(".input.")),
    text: marked?.text ?? body,
    position: marked?.position,
    directives,
  };
}

/** The directive `key` of a fixture; fails the test, naming the file, when it is missing. */
export function directive(fixture: GoldenFixture, key: string): string {
  const value = fixture.directives[key];
  assert.ok(value !== undefined, `${fixture.name}: add a "//! ${key}: ..." line at the top of its fixture`);
  return value;
}

/**
 * The directive `key` of a fixture read as a range written `L:C-L:C` (1-based, as the goldens
 * print ranges); undefined when the fixture has none, a failure naming the fixture when it is
 * written otherwise.
 */
export function rangeDirective(fixture: GoldenFixture, key: string): Range | undefined {
  const written = fixture.directives[key];
  if (written === undefined) return undefined;
  const match = /^(\d+):(\d+)-(\d+):(\d+)$/.exec(written);
  assert.ok(match, `${fixture.name}: write "//! ${key}:" as L:C-L:C, 1-based, not ${JSON.stringify(written)}`);
  const [line1, col1, line2, col2] = match.slice(1).map((n) => Number(n) - 1) as [number, number, number, number];
  return { start: { line: line1, character: col1 }, end: { line: line2, character: col2 } };
}

/** The directive `key` of a fixture read as JSON; undefined when absent, a failure naming the fixture when not JSON. */
export function jsonDirective(fixture: GoldenFixture, key: string): unknown {
  const written = fixture.directives[key];
  if (written === undefined) return undefined;
  try {
    return JSON.parse(written) as unknown;
  } catch {
    assert.fail(`${fixture.name}: "//! ${key}:" must be JSON, not ${JSON.stringify(written)}`);
  }
}

/**
 * Asserts `actual` equals the golden file `folder/file` (under `root`, the service goldens by
 * default); with UPDATE_GOLDEN=1 writes it instead.
 * A missing golden file fails with how to create it.
 */
export function expectGolden(actual: string, folder: string, file: string, root = GOLDEN_ROOT): void {
  const path = join(root, folder, file);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(join(root, folder), { recursive: true });
    if (!existsSync(path) || readFileSync(path, "utf8") !== actual) writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `no golden file ${folder}/${file}: create it with ${UPDATE_COMMAND}`);
  assert.equal(
    actual,
    readFileSync(path, "utf8"),
    `differs from golden ${folder}/${file} (${UPDATE_COMMAND} rewrites it)`,
  );
}

/**
 * One test per fixture of test/service/golden/`folder`/ (or of `options.inputs`, folders whose
 * fixtures several features share, such as plans/, and the feature's own), in name order within
 * each folder. `produce` returns the test's outputs by golden suffix
 * (`{".expected.rlmplan.json": text}`); each must equal its golden file in `folder`, and every
 * golden file of the fixture must be produced (a stale one fails too).
 */
export function goldenTests(
  folder: string,
  produce: (fixture: GoldenFixture) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>,
  options: { readonly inputs?: string | readonly string[] } = {},
): void {
  const inputFolders = typeof options.inputs === "string" ? [options.inputs] : (options.inputs ?? [folder]);
  const output = join(GOLDEN_ROOT, folder);
  const files = existsSync(output) ? readdirSync(output).sort() : [];
  const inputs = inputFolders.flatMap((inputFolder) =>
    readdirSync(join(GOLDEN_ROOT, inputFolder))
      .filter((file) => file.includes(".input."))
      .sort()
      .map((file) => ({ inputFolder, file, name: file.slice(0, file.indexOf(".input.")) })),
  );
  for (const { inputFolder, file, name } of inputs) {
    it(name, async () => {
      const outputs = await produce(goldenFixture(inputFolder, file));
      for (const [suffix, actual] of Object.entries(outputs)) expectGolden(actual, folder, `${name}${suffix}`);
      const produced = new Set(Object.keys(outputs).map((suffix) => `${name}${suffix}`));
      const stale = files.filter((each) => each.startsWith(`${name}.expected.`) && !produced.has(each));
      assert.deepEqual(stale, [], `golden files ${name}'s test no longer produces: delete them`);
    });
  }
  it("every golden file has its fixture, and no two fixtures share a name", () => {
    const names = inputs.map((input) => input.name);
    const twice = names.filter((name, i) => names.indexOf(name) !== i);
    assert.deepEqual(twice, [], `fixtures of ${inputFolders.join(" and ")} with the same name: rename one`);
    const orphans = files.filter(
      (file) => file.includes(".expected.") && !names.includes(file.slice(0, file.indexOf(".expected."))),
    );
    assert.deepEqual(
      orphans,
      [],
      `golden files without a <name>.input.* fixture in ${inputFolders.join(" or ")}/: add the fixture or delete them`,
    );
  });
}
