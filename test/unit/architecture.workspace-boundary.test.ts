// Holds the workspace boundary (issue 33, docs/security.md) by behaviour, not by names: every field
// of a workspace file's schema that holds a path (its description says "relative to") is found in
// the schemas themselves, and for each the core's own reader of that file is given a document whose
// path leads outside the workspace, to a file that would read fine. The reader must refuse it at
// that field's JSON path with the boundary's message, and must never open the outside file (fs is
// watched while it reads). A new path field in a schema with no case here fails, so a reader added
// for it cannot skip the boundary unnoticed.

import assert from "node:assert/strict";
import fs, { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { loadHostProfile } from "@rlm-plan/core/host";
import { loadTestFile } from "@rlm-plan/core/testing";
import { repositoryRoot } from "../support/importGraph";

const SCHEMAS = ["host-profile", "plan-test", "mocks", "cassette"];

type Schema = { [key: string]: unknown };

/** Every place (a JSON Pointer, `*` for any key or index) whose description says it is a path. */
function pathFields(name: string): Set<string> {
  const root = JSON.parse(
    readFileSync(join(repositoryRoot, "shared-runtime", "schemas", `${name}.schema.json`), "utf8"),
  ) as Schema;
  const found = new Set<string>();
  const visit = (node: unknown, at: string, refs: readonly string[]): void => {
    if (typeof node !== "object" || node === null) return;
    const schema = node as Schema;
    const ref = schema.$ref;
    if (typeof ref === "string" && ref.startsWith("#/") && !refs.includes(ref)) {
      const target = ref
        .slice(2)
        .split("/")
        .reduce<unknown>((value, key) => (value as Schema)[key], root);
      visit(target, at, [...refs, ref]);
    }
    if (typeof schema.description === "string" && /relative to/i.test(schema.description) && at !== "") found.add(at);
    for (const [key, child] of Object.entries((schema.properties as Schema | undefined) ?? {}))
      visit(child, `${at}/${key}`, refs);
    for (const key of ["additionalProperties", "items"]) visit(schema[key], `${at}/*`, refs);
    for (const child of Object.values((schema.patternProperties as Schema | undefined) ?? {}))
      visit(child, `${at}/*`, refs);
    for (const key of ["oneOf", "anyOf", "allOf"])
      for (const child of (schema[key] as unknown[] | undefined) ?? []) visit(child, at, refs);
  };
  visit(root, "", []);
  return found;
}

// The workspace (`inside`, whose profile and plan are fine) and, beside it, files that would read
// fine if a reader went there.
const base = mkdtempSync(join(tmpdir(), "rlm-plan-boundary-arch-"));
after(() => rmSync(base, { recursive: true, force: true }));
const inside = join(base, "inside");
const outside = join(base, "outside");
mkdirSync(inside);
mkdirSync(outside);
const PLAN = '{"steps": [{"op": "final", "value": 1}]}';
const GOOD_PROFILE = '{"capabilities": []}';
writeFileSync(join(inside, "rlmplan.host.json"), GOOD_PROFILE);
writeFileSync(join(inside, "p.rlmplan.json"), PLAN);
writeFileSync(join(inside, "rows.jsonl"), "{}\n");
const OUT = {
  dir: outside,
  text: join(outside, "notes.txt"),
  plan: join(outside, "p.rlmplan.json"),
  profile: join(outside, "rlmplan.host.json"),
  mocks: join(outside, "m.mocks.json"),
  cassette: join(outside, "c.cassette.json"),
  rows: join(outside, "rows.jsonl"),
};
writeFileSync(OUT.text, "outside\n");
writeFileSync(OUT.plan, PLAN);
writeFileSync(OUT.profile, '{"capabilities": []}');
writeFileSync(OUT.mocks, "{}");
writeFileSync(OUT.cassette, '{"version": 1, "entries": []}');
writeFileSync(OUT.rows, "{}\n");

type Reader = "profile" | "test";
const profile = (value: object) => ({ capabilities: [], ...value });
const suite = (value: object) => ({ plan: "p.rlmplan.json", cases: [{ name: "c" }], ...value });
const dataset = (value: object) => suite({ dataset: { file: "rows.jsonl", ...value } });

/** Each path field of the schemas: the documents that point it outside, and who reads them. */
const CASES: Record<string, { reader: Reader; pointer: string; documents: object[] }> = {
  "host-profile /inputs/*/path": {
    reader: "profile",
    pointer: "/inputs/x/path",
    documents: [
      profile({ inputs: { x: { type: "text-file", path: OUT.text } } }),
      profile({ inputs: { x: { type: "items-file", path: OUT.rows } } }),
    ],
  },
  "host-profile /journal/dir": {
    reader: "profile",
    pointer: "/journal/dir",
    documents: [profile({ journal: { dir: OUT.dir } })],
  },
  "host-profile /tools/*/cwd": {
    reader: "profile",
    pointer: "/tools/t/cwd",
    documents: [profile({ tools: { t: { type: "command", command: ["node"], cwd: OUT.dir } } })],
  },
  "host-profile /mcpServers/*/cwd": {
    reader: "profile",
    pointer: "/mcpServers/s/cwd",
    documents: [profile({ mcpServers: { s: { command: "node", cwd: OUT.dir } } })],
  },
  "host-profile /tools/*/writes": {
    reader: "profile",
    pointer: "/tools/t/writes/0",
    documents: [profile({ tools: { t: { type: "command", command: ["node"], writes: [OUT.dir] } } })],
  },
  "host-profile /mcpServers/*/writes": {
    reader: "profile",
    pointer: "/mcpServers/s/writes/0",
    documents: [profile({ mcpServers: { s: { command: "node", writes: [OUT.dir] } } })],
  },
  "plan-test /plan": { reader: "test", pointer: "/plan", documents: [suite({ plan: OUT.plan })] },
  "plan-test /host": { reader: "test", pointer: "/host", documents: [suite({ host: OUT.profile })] },
  "plan-test /mocks": { reader: "test", pointer: "/mocks", documents: [suite({ mocks: OUT.mocks })] },
  "plan-test /cassette": { reader: "test", pointer: "/cassette", documents: [suite({ cassette: OUT.cassette })] },
  "plan-test /cases/*/mocks": {
    reader: "test",
    pointer: "/cases/0/mocks",
    documents: [suite({ cases: [{ name: "c", mocks: OUT.mocks }] })],
  },
  "plan-test /cases/*/cassette": {
    reader: "test",
    pointer: "/cases/0/cassette",
    documents: [suite({ cases: [{ name: "c", cassette: OUT.cassette }] })],
  },
  "plan-test /dataset/file": { reader: "test", pointer: "/dataset/file", documents: [dataset({ file: OUT.rows })] },
  "plan-test /dataset/mocks": { reader: "test", pointer: "/dataset/mocks", documents: [dataset({ mocks: OUT.mocks })] },
  "plan-test /dataset/cassette": {
    reader: "test",
    pointer: "/dataset/cassette",
    documents: [dataset({ cassette: OUT.cassette })],
  },
};

/** The files opened while `read` runs (fs's reading entries, which every reader of the core goes through). */
function opened(read: () => unknown): { result: unknown; files: string[] } {
  const files: string[] = [];
  const watched = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const name of ["openSync", "readFileSync", "open", "readFile", "createReadStream", "opendirSync"]) {
    const original = watched[name] as (...args: unknown[]) => unknown;
    originals.set(name, original);
    watched[name] = function (this: unknown, ...args: unknown[]) {
      if (typeof args[0] === "string") files.push(resolve(args[0]));
      return original.apply(this, args);
    };
  }
  try {
    return { result: read(), files };
  } finally {
    for (const [name, original] of originals) watched[name] = original;
  }
}

function readerOf(reader: Reader): { file: string; read: (file: string) => { ok: boolean; errors?: unknown } } {
  return reader === "profile"
    ? { file: join(inside, "rlmplan.host.json"), read: loadHostProfile }
    : { file: join(inside, "t.rlmplan.test.json"), read: loadTestFile };
}

describe("the workspace boundary holds every path a workspace file names", () => {
  test("the schemas' path fields are exactly the fields this test drives", () => {
    const fields = SCHEMAS.flatMap((name) => [...pathFields(name)].map((field) => `${name} ${field}`)).sort();
    assert.deepEqual(fields, Object.keys(CASES).sort());
  });

  for (const [field, { reader, pointer, documents }] of Object.entries(CASES))
    test(`${field}: refused at its string, the outside file never opened`, () => {
      const { file, read } = readerOf(reader);
      for (const document of documents) {
        writeFileSync(file, JSON.stringify(document));
        try {
          const { result, files } = opened(() => read(file));
          const { ok, errors } = result as { ok: boolean; errors?: { jsonPath: string; message: string }[] };
          assert.equal(ok, false, `${field}: read without the boundary`);
          const refusal = errors?.find((error) => error.jsonPath === pointer);
          assert.match(refusal?.message ?? JSON.stringify(errors), /is outside the workspace/);
          assert.deepEqual(
            files.filter((opened) => opened.startsWith(`${outside}/`)),
            [],
          );
        } finally {
          // The workspace's own profile back as it was; a test file removed.
          if (reader === "profile") writeFileSync(file, GOOD_PROFILE);
          else rmSync(file, { force: true });
        }
      }
    });
});
