// Lint rules for every package and script: typescript-eslint's recommended rules, plus the two
// type-aware rules that catch real bugs here (a promise nobody awaits or catches, a promise where
// a callback's result is ignored). Type information comes from each package's tsconfig; the .mjs
// scripts and the e2e harness are checked as JavaScript with inferred types.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** node:test's test(), describe() and hooks return promises the runner itself awaits. */
const NODE_TEST_CALLS = ["test", "describe", "it", "suite", "before", "after", "beforeEach", "afterEach"];

/** A package is reached through its name and the subpaths of its exports map, never its build folder. */
const INTO_ANOTHER_PACKAGE = {
  group: ["@rlm-plan/*", "rlm-plan", "rlm-plan-client"].flatMap((name) => [
    `${name}/out`,
    `${name}/out/*`,
    `${name}/src`,
    `${name}/src/*`,
  ]),
  message: "Import the package by its name and an exported subpath (see its package.json exports).",
};

export default tseslint.config(
  { ignores: ["**/out/**", "**/node_modules/**", "**/dist/**", "**/*.js", ".e2e/**", ".vscode-test/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["*.mjs", "scripts/*.mjs", "scripts/*.cjs", "test/e2e/*.mjs"],
          // Nine scripts outside every tsconfig (the default limit is 8).
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-constant-condition": ["error", { checkLoops: false }],
      "@typescript-eslint/no-floating-promises": [
        "error",
        { allowForKnownSafeCalls: [{ from: "package", name: NODE_TEST_CALLS, package: "node:test" }] },
      ],
      "@typescript-eslint/no-misused-promises": "error",
      "no-restricted-imports": ["error", { patterns: [INTO_ANOTHER_PACKAGE] }],
    },
  },
  { files: ["**/*.mjs"], languageOptions: { globals: { ...globals.node } } },
  // CommonJS scripts preloaded with `node --require` (scripts/native-modules.cjs): require is their import.
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
