// Temporary workspace folders with real files, as the server reads them from disk (host
// profiles, tools, plans not open in the client).

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** A workspace folder under the system's temporary folder, with real files. */
export class TempWorkspace {
  readonly root: string;

  /** `files`: text by path relative to the root (folders are made). */
  constructor(files: Record<string, string> = {}) {
    this.root = mkdtempSync(join(tmpdir(), "rlm-plan-lsp-"));
    for (const [name, text] of Object.entries(files)) this.write(name, text);
  }

  path(name: string): string {
    return join(this.root, name);
  }

  uri(name: string): string {
    return pathToFileURL(this.path(name)).href;
  }

  write(name: string, text: string): string {
    const file = this.path(name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  }

  remove(name: string): void {
    rmSync(this.path(name), { force: true });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A host profile's text, as its file is written. */
export function hostProfile(profile: Record<string, unknown>): string {
  return `${JSON.stringify(profile, null, 2)}\n`;
}
