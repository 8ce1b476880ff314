// scripts/bundle.mjs as the tests use it: its entries and esbuild options, so that a test builds
// a bundle exactly as the .vsix gets it (in memory or into a temporary folder).

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BuildOptions } from "esbuild";

export interface BundleEntry {
  readonly in: string;
  readonly out: string;
}

export interface BundleScript {
  readonly entries: readonly BundleEntry[];
  bundleOptions(entry: BundleEntry, options?: { dev?: boolean }): BuildOptions;
}

/** The repository's root (test/out/support/ → ../../..). */
export const REPOSITORY_ROOT = join(__dirname, "..", "..", "..");

export async function bundleScript(): Promise<BundleScript & { entry(out: string): BundleEntry }> {
  const script = (await import(pathToFileURL(join(REPOSITORY_ROOT, "scripts", "bundle.mjs")).href)) as BundleScript;
  return {
    ...script,
    entry(out) {
      const found = script.entries.find((e) => e.out === out);
      if (!found) throw new Error(`scripts/bundle.mjs has no entry for ${out}`);
      return found;
    },
  };
}
