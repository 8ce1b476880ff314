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

/**
 * Builds the bundles `outs` ("dist/server.js", ...) into `dir` as scripts/bundle.mjs builds them;
 * resolves to each bundle's inputs (paths from the repository's root), from esbuild's metafile.
 */
export async function bundleInto(dir: string, outs: readonly string[]): Promise<Map<string, string[]>> {
  const { build } = await import("esbuild");
  const script = await bundleScript();
  const inputs = new Map<string, string[]>();
  for (const out of outs) {
    const outfile = join(dir, out.slice("dist/".length));
    const result = await build({ ...script.bundleOptions(script.entry(out)), outfile, logLevel: "silent" });
    const outputs = Object.values(result.metafile?.outputs ?? {});
    inputs.set(out, Object.keys(outputs.find((o) => o.entryPoint)?.inputs ?? {}));
  }
  return inputs;
}
