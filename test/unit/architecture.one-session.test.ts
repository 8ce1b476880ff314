// Holds "nothing outside the plan session reads a host profile, builds an analysis policy or a
// secret mask" and "every run starts through the plan session" (ARCHITECTURE.md): every
// workspace package of the root package.json is scanned, recursively, for the calls that do one
// of those; only the core's session and the modules that define them may make them (a run:
// the session and the run pipeline's own startRun.ts and prepareRun.ts). The scanner is shown a planted offender first, so it can fail.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");

/** What each forbidden act looks like in source: a call of the function that does it. */
const ACTS: readonly { readonly act: string; readonly pattern: RegExp }[] = [
  { act: "reads a host profile", pattern: /\b(?:loadHostProfile|parseHostProfile|findHostProfile)\s*\(/ },
  {
    act: "builds an analysis policy",
    pattern: /\b(?:hostPolicy|hostToolKnowledge|contextInputNames|dataLimitsOf)\s*\(|\bregistries\s*:\s*\{/,
  },
  { act: "builds a secret mask", pattern: /\bnew\s+SecretMask\s*\(|\benvironmentSecrets\s*\(/ },
];

/** Starting a run (or its preflight) directly: every front end, the test runner too, goes through the session's `run`/`preflight`. */
const RUN_ACT = { act: "starts a run outside the plan session", pattern: /\b(?:startRun|startPreflight)\s*\(/ };

/** The session, and the run pipeline's own modules (where startRun and startPreflight are defined and `runPlan` wraps startRun). */
const RUN_ALLOWED = [
  "shared-runtime/src/session/",
  "shared-runtime/src/run/startRun.ts",
  "shared-runtime/src/run/prepareRun.ts",
];

/** The session, and the modules where these functions are defined (their own bodies and helpers). */
const ALLOWED = [
  "shared-runtime/src/session/",
  "shared-runtime/src/host/profile.ts",
  "shared-runtime/src/host/profileTypes.ts",
  "shared-runtime/src/host/createHost.ts",
  "shared-runtime/src/host/hostPolicy.ts",
  "shared-runtime/src/host/mcp/discovery.ts",
  "shared-runtime/src/mask/secretMask.ts",
];

function packages(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] };
  return manifest.workspaces;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === "out" || name === "node_modules" || name === "dist" ? [] : sourceFiles(path);
    return /\.(?:ts|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Comments say what other modules do; only code counts. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

function offences(file: string, text: string, acts = ACTS): string[] {
  const body = code(text);
  return acts.filter(({ pattern }) => pattern.test(body)).map(({ act }) => `${file} ${act}`);
}

function allowed(file: string, prefixes = ALLOWED): boolean {
  const path = file.split(sep).join("/");
  return prefixes.some((prefix) => path === prefix || (prefix.endsWith("/") && path.startsWith(prefix)));
}

test("the scanner finds each act, and not in comments", () => {
  assert.deepEqual(offences("x.ts", 'const p = loadHostProfile("a");'), ["x.ts reads a host profile"]);
  assert.deepEqual(offences("x.ts", "const policy = { registries: { tools } };"), ["x.ts builds an analysis policy"]);
  assert.deepEqual(offences("x.ts", "const m = new SecretMask(environmentSecrets(env));"), [
    "x.ts builds a secret mask",
  ]);
  assert.deepEqual(offences("x.ts", "// loadHostProfile(file) is the session's business"), []);
  assert.deepEqual(offences("x.ts", "const report = await startRun({ source, policy, host }).done;", [RUN_ACT]), [
    "x.ts starts a run outside the plan session",
  ]);
  assert.deepEqual(offences("x.ts", "return startPreflight ({ source });", [RUN_ACT]), [
    "x.ts starts a run outside the plan session",
  ]);
  assert.deepEqual(offences("x.ts", "// startRun(options) is the session's to call\nsession.run({});", [RUN_ACT]), []);
});

test("every workspace package is scanned, recursively", () => {
  const scanned = packages().map((dir) => [dir, sourceFiles(join(root, dir)).length] as const);
  for (const [dir, count] of scanned) assert.ok(count > 0, `${dir} has sources`);
  assert.ok(
    sourceFiles(join(root, "server")).some((file) => file.includes(`${sep}service${sep}`)),
    "nested folders are scanned",
  );
});

test("no module outside the plan session reads a host profile, builds an analysis policy or a secret mask", () => {
  const found: string[] = [];
  for (const dir of packages()) {
    for (const file of sourceFiles(join(root, dir))) {
      const rel = relative(root, file);
      if (allowed(rel)) continue;
      found.push(...offences(rel, readFileSync(file, "utf8")));
    }
  }
  assert.deepEqual(found, []);
});

test("no module outside the plan session starts a run or a preflight (the test runner's cases included)", () => {
  const found: string[] = [];
  for (const dir of packages()) {
    for (const file of sourceFiles(join(root, dir))) {
      const rel = relative(root, file);
      if (allowed(rel, RUN_ALLOWED)) continue;
      found.push(...offences(rel, readFileSync(file, "utf8"), [RUN_ACT]));
    }
  }
  assert.deepEqual(found, []);
});
