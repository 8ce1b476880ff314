// Writes the generated copies (the plan schema, the TextMate grammar, the snippets, the schema validators)
// from the AST's tables: `npm run generate` (which builds first). See ARCHITECTURE.md.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const { GENERATED_FILES, REPOSITORY_ROOT, generatedText } = require("./out/vocabulary/outputs.js");

for (const file of GENERATED_FILES) {
  const path = join(REPOSITORY_ROOT, file.path);
  const text = await generatedText(file);
  let current;
  try {
    current = readFileSync(path, "utf8");
  } catch {
    current = undefined;
  }
  if (current === text) {
    console.log(`${file.path}: up to date`);
  } else {
    writeFileSync(path, text);
    console.log(`${file.path}: written`);
  }
}
