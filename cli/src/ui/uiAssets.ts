// Where the run browser's page script and stylesheet are: cli/dist/ui/ beside the CLI's bundle
// (cli/dist/rlm-plan.js), or the same folder seen from the compiled sources (cli/out/ui/). Built
// by scripts/bundle-cli.mjs from cli/ui/, shipped in the package (package.json "files").

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The folder holding ui.js and ui.css, or undefined when the CLI was not bundled (npm run build). */
export function uiAssetsDir(): string | undefined {
  const candidates = [join(__dirname, "ui"), join(__dirname, "..", "..", "dist", "ui")];
  return candidates.find((dir) => existsSync(join(dir, "ui.js")) && existsSync(join(dir, "ui.css")));
}

/** The page's script and stylesheet, for a page that carries them inline (an HTML export). */
export function uiAssets(): { readonly script: string; readonly css: string } | undefined {
  const dir = uiAssetsDir();
  if (dir === undefined) return undefined;
  return { script: readFileSync(join(dir, "ui.js"), "utf8"), css: readFileSync(join(dir, "ui.css"), "utf8") };
}

export const MISSING_ASSETS = "the run browser's page (cli/dist/ui/) is not built: run npm run build";
