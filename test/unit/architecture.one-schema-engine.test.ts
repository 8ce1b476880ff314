// One schema engine (ARCHITECTURE.md, `text/schemaEngine.ts`): every JSON Schema validator of the
// product is made by the core's factory, whose patterns run on RE2 and whose schemas and values
// are capped. This fails on a validator built anywhere else (ajv or another JSON Schema library
// loaded as a value, a `new Ajv…`, an MCP client left with the SDK's own ajv), and on a pattern
// in the ahead-of-time validators (host/generated/) that is not one of the runtime's own schemas'
// or that RE2 cannot run.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { RE2JS } from "re2js";
import { MAX_SCHEMA_BYTES, MAX_VALIDATED_BYTES, schemaEngine } from "@rlm-plan/core/text/schemaEngine";

const root = join(__dirname, "..", "..", "..");
const FACTORY = "shared-runtime/src/text/schemaEngine.ts";
const GENERATED = "shared-runtime/src/host/generated";
const PRODUCT = ["shared-runtime/src", "cli/src", "server/src", "debug-adapter/src", "client/src", "scripts"];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ["out", "dist", "node_modules"].includes(name) ? [] : sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** JSON Schema validator libraries (and ajv's builds): loading one as a value can build a validator. */
const VALIDATOR_MODULE =
  /^(ajv(\/dist\/(2019|2020|jtd|ajv))?|ajv-draft-04|ajv\/dist\/core|@cfworker\/json-schema|jsonschema|@exodus\/schemasafe|z-schema|is-my-json-valid|djv|@hyperjump\/json-schema(\/.*)?|@modelcontextprotocol\/sdk\/validation\/(ajv|cfworker)(\.js)?)$/;

/** What in a source's text builds a validator: a value import or require of such a module, or `new Ajv…(`. */
export function validatorBuilds(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(import\s+(type\s+)?[^;]*?from\s+|require\(\s*|import\(\s*)["']([^"']+)["']/g))
    if (m[2] === undefined && VALIDATOR_MODULE.test(m[3] as string)) found.push(`loads ${m[3]}`);
  for (const m of text.matchAll(/new\s+(Ajv\w*|engine|draft(7|2019|2020))\s*\(/g)) found.push(`calls new ${m[1]}(`);
  return found;
}

test("the scan sees the product's sources and the factory's own builds", () => {
  const files = PRODUCT.flatMap((dir) => sourceFiles(join(root, dir)));
  assert.ok(files.length > 300, String(files.length));
  assert.ok(validatorBuilds(readFileSync(join(root, FACTORY), "utf8")).length >= 3);
});

test("the scan would see a validator built outside the factory", () => {
  assert.deepEqual(validatorBuilds('import Ajv from "ajv";\nconst a = new Ajv({});'), ["loads ajv", "calls new Ajv("]);
  assert.deepEqual(validatorBuilds('const A = require("ajv/dist/2020").default;'), ["loads ajv/dist/2020"]);
  assert.deepEqual(validatorBuilds('import { Validator } from "@cfworker/json-schema";'), [
    "loads @cfworker/json-schema",
  ]);
  assert.deepEqual(
    validatorBuilds('import type { ErrorObject } from "ajv";\nimport standalone from "ajv/dist/standalone";'),
    [],
  );
});

test("no JSON Schema validator is built outside text/schemaEngine.ts", () => {
  const offenders = PRODUCT.flatMap((dir) => sourceFiles(join(root, dir)))
    .map((file) => relative(root, file))
    .filter((file) => file !== FACTORY && !file.startsWith(`${GENERATED}/`))
    .flatMap((file) => validatorBuilds(readFileSync(join(root, file), "utf8")).map((what) => `${file} ${what}`));
  assert.deepEqual(offenders, []);
});

test("every MCP client checks structured results with the factory's validator, not the SDK's ajv", () => {
  const clients = PRODUCT.flatMap((dir) => sourceFiles(join(root, dir))).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/new Client\(([^)]*)\)/g)].map((m) => [relative(root, file), m[1]]),
  );
  assert.ok(clients.length >= 1);
  for (const [file, args] of clients) assert.match(args as string, /jsonSchemaValidator: mcpOutputValidator/, file);
});

test("the ahead-of-time validators hold only their schemas' own patterns, each one RE2 runs", () => {
  const schemaPatterns = new Set<string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null)
      for (const [key, child] of Object.entries(value)) {
        if (key === "pattern" && typeof child === "string") schemaPatterns.add(child);
        collect(child);
      }
  };
  for (const name of ["host-profile.schema.json", "mocks.schema.json"])
    collect(JSON.parse(readFileSync(join(root, "shared-runtime", "schemas", name), "utf8")));
  const generated = readdirSync(join(root, GENERATED)).map((name) => readFileSync(join(root, GENERATED, name), "utf8"));
  const expressions = generated.flatMap((text) =>
    [...text.matchAll(/new RegExp\(([^)]*)\)/g)].map((m) => m[1] as string),
  );
  assert.ok(expressions.length >= 1);
  for (const expression of expressions) {
    const pattern = JSON.parse(expression.replace(/,\s*"u"\s*$/, "")) as string;
    assert.ok(schemaPatterns.has(pattern), `${pattern} is no pattern of the runtime's schemas`);
    assert.doesNotThrow(() => RE2JS.compile(RE2JS.translateRegExp(pattern)), pattern);
  }
});

test("the factory's validators: linear patterns, unique items in one pass, capped schemas and values", () => {
  const engine = schemaEngine({ allErrors: true });
  const evil = engine.compile({ type: "string", pattern: "^(a+)+$" });
  assert.deepEqual([evil(`${"a".repeat(40)}!`), evil("aaaa")], [false, true]);
  const unique = engine.compile({ uniqueItems: true });
  assert.deepEqual(
    [
      unique([
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
      unique([{ a: 1 }, { a: 2 }]),
      unique([1, "1"]),
    ],
    [false, true, true],
  );
  assert.equal(unique.errors?.length ?? 0, 0);
  unique([0, { a: [1] }, 2, { a: [1] }]);
  assert.deepEqual(
    unique.errors?.map((e) => [e.instancePath, e.message]),
    [["", "must NOT have duplicate items (items ## 1 and 3 are identical)"]],
  );
  assert.throws(
    () => engine.compile({ enum: ["x".repeat(MAX_SCHEMA_BYTES)] }),
    new RegExp(`^Error: the schema has ${MAX_SCHEMA_BYTES + 13} bytes, over the limit of ${MAX_SCHEMA_BYTES}$`),
  );
  const any = engine.compile({});
  assert.equal(any("x".repeat(MAX_VALIDATED_BYTES)), false);
  assert.deepEqual(
    any.errors?.[0]?.message,
    `has ${MAX_VALIDATED_BYTES + 2} bytes, over the limit of ${MAX_VALIDATED_BYTES} a schema checks`,
  );
});
