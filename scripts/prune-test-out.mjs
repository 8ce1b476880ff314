// Removes compiled test files whose source is gone or moved (tsc -b never deletes output): a test
// moved from test/unit/ to test/cli/ would otherwise still run from test/out/unit/, in the wrong
// tier and against the guard of the in-process tiers. The last part of `npm run build`.
//
//   node scripts/prune-test-out.mjs

import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const out = join(root, "test", "out");

function compiledTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return compiledTests(path);
    return name.endsWith(".test.js") ? [path] : [];
  });
}

for (const file of compiledTests(out)) {
  const source = join(root, "test", relative(out, file)).replace(/\.js$/, ".ts");
  if (existsSync(source)) continue;
  for (const suffix of [".js", ".js.map", ".d.ts"]) rmSync(file.replace(/\.js$/, suffix), { force: true });
  console.log(`prune-test-out: removed ${relative(root, file)} (no ${relative(root, source)})`);
}
