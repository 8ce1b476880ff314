// Every command and setting name the user-facing docs mention is one the code defines: the
// extension's manifest (commands, settings) or the language server's executeCommand names; every
// repository path they name exists (a build output by its source), so a move updates the docs.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";

const ROOT = resolve(__dirname, "..", "..", "..");
const DOCS = ["README.md", "client/README.md", "server/README.md", "cli/README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
  .concat(readdirSync(join(ROOT, "docs")).flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : [])))
  .filter((path) => existsSync(join(ROOT, path)));

interface Manifest {
  contributes: {
    commands: { command: string; category?: string; title: string }[];
    configuration: { properties: Record<string, unknown> };
  };
}

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;

/** The server's command names, wherever its protocol module lives under server/src. */
function serverCommands(): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(join(ROOT, "server", "src"), { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".ts")) continue;
    const text = readFileSync(join(ROOT, "server", "src", entry), "utf8");
    for (const match of text.matchAll(/export const command = "([^"]+)"/g)) names.push(match[1]!);
  }
  return names;
}

/** The debug adapter's custom events, as the protocol module names them. */
function debugEvents(): string[] {
  const text = readFileSync(join(ROOT, "server", "src", "protocol.ts"), "utf8");
  return [...text.matchAll(/export const event = "([^"]+)"/g)].map((match) => match[1]!);
}

function mentions(pattern: RegExp): { doc: string; name: string }[] {
  return DOCS.flatMap((doc) =>
    [...readFileSync(join(ROOT, doc), "utf8").matchAll(pattern)].map((match) => ({ doc, name: match[1]! })),
  );
}

/** The maps of the code and the examples' guides, read for paths beside the docs above. */
const PATH_DOCS = [...DOCS, "ARCHITECTURE.md", "bench/README.md", "examples/workspace/README.md"];

/** A path into the repository: a top-level folder, then more of a path (no globs, no placeholders). */
const REPOSITORY_PATH =
  /(?<![\w./-])((?:shared-runtime|cli|server|client|debug-adapter|test|bench|scripts|examples|docs|syntaxes|snippets)\/[\w./-]*[\w/])/g;

/** The file a path names, or its source for a build output (out/x.js -> src/x.ts, test/out/x.js -> test/x.ts). */
function sourceOf(path: string): string {
  const pkg = /^(shared-runtime|cli|server|client|debug-adapter)\/out\/(.*)$/.exec(path);
  if (pkg) return `${pkg[1]}/src/${pkg[2]!.replace(/\.js$/, ".ts")}`;
  const project = /^(test|bench|scripts)\/out\/(.*)$/.exec(path);
  if (project) return `${project[1]}/${project[2]!.replace(/\.js$/, ".ts")}`;
  return path;
}

describe("names in the docs", () => {
  test("every repository path the docs name exists (a build output by its source)", () => {
    const named = PATH_DOCS.filter((doc) => existsSync(join(ROOT, doc))).flatMap((doc) =>
      [...readFileSync(join(ROOT, doc), "utf8").matchAll(REPOSITORY_PATH)].map((match) => ({ doc, path: match[1]! })),
    );
    assert.ok(named.length > 50, `too few paths found (${named.length}): is the pattern wrong?`);
    assert.deepEqual(
      named
        .filter(({ path }) => !/(^|\/)(dist|node_modules|screenshots)(\/|$)/.test(path))
        .filter(({ path }) => !existsSync(join(ROOT, sourceOf(path)))),
      [],
    );
  });

  test("a build output is checked by its source", () => {
    assert.equal(sourceOf("shared-runtime/out/cli/main.js"), "shared-runtime/src/cli/main.ts");
    assert.equal(sourceOf("test/out/conformance/support/runner.js"), "test/conformance/support/runner.ts");
    assert.equal(sourceOf("test/out/unit/"), "test/unit/");
    assert.equal(sourceOf("cli/bin/rlm-plan.js"), "cli/bin/rlm-plan.js");
    assert.deepEqual(
      [..."run `node shared-runtime/out/cli/main.js` (see cli/src/main.ts).".matchAll(REPOSITORY_PATH)].map(
        (m) => m[1],
      ),
      ["shared-runtime/out/cli/main.js", "cli/src/main.ts"],
    );
  });

  test("every rlmPlan.* name is a command, a setting, a server command or a debug event", () => {
    const known = new Set([
      ...manifest.contributes.commands.map((command) => command.command),
      ...Object.keys(manifest.contributes.configuration.properties),
      ...serverCommands(),
      ...debugEvents(),
    ]);
    const mentioned = mentions(/`(rlmPlan\.[A-Za-z.]*[A-Za-z])`/g);
    assert.ok(mentioned.length > 10, `too few names found (${mentioned.length}): is the pattern wrong?`);
    assert.deepEqual(
      mentioned.filter(({ name }) => !known.has(name)),
      [],
    );
  });

  test("every **RLM Plan: ...** command title is one of the manifest's", () => {
    const titles = new Set(manifest.contributes.commands.map((command) => `${command.category}: ${command.title}`));
    const mentioned = mentions(/\*\*(RLM Plan: [^*]+)\*\*/g);
    assert.ok(mentioned.length > 5, `too few titles found (${mentioned.length})`);
    assert.deepEqual(
      mentioned.filter(({ name }) => !titles.has(name)),
      [],
    );
  });

  test("the server README lists every command the server registers", () => {
    const readme = readFileSync(join(ROOT, "server", "README.md"), "utf8");
    const missing = serverCommands().filter(
      (name) => name.startsWith("rlmPlan.server.") && !readme.includes(`| \`${name}\``),
    );
    assert.deepEqual(missing, []);
  });

  test("the Marketplace page ends with what users need, not how to build the extension", () => {
    const page = readFileSync(join(ROOT, "client", "README.md"), "utf8");
    for (const developerOnly of ["npm run", "launch.json", "press F5"]) {
      assert.equal(page.includes(developerOnly), false, `client/README.md mentions "${developerOnly}"`);
    }
  });

  test("the README claims no Helix test (there is none; Neovim's is test/neovim/)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const sentences = readme.split(/\.\s/).filter((sentence) => sentence.includes("Helix"));
    assert.ok(sentences.length > 0);
    for (const sentence of sentences) assert.match(sentence, /not exercised by a test/);
    assert.ok(existsSync(join(ROOT, "test", "neovim")));
  });
});
