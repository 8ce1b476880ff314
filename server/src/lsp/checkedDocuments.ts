// What the workspace tells its listeners once an open document other than an analysed plan is
// checked: a plan refused for its size, a host profile, a mocks file.

import type { HostProfile, HostProfileResult, ProfileLockStatus } from "@rlm-plan/core/host";
import type { TextDocument } from "vscode-languageserver-textdocument";

/** A plan over `maxAnalyzedSize`: not analysed; its one diagnostic says why. */
export interface RefusedPlan {
  readonly document: TextDocument;
  readonly bytes: number;
  readonly limit: number;
}

/** A checked host profile document: its text's parse result and its file. */
export interface CheckedHostProfile {
  readonly document: TextDocument;
  readonly file: string;
  readonly result: HostProfileResult;
  /** MCP server name -> why it could not list its tools (when listing is on and has run). */
  readonly toolListingFailures: ReadonlyMap<string, string>;
  /** How a valid profile stands against its lock, from files alone (undefined when it has errors). */
  readonly lock: ProfileLockStatus | undefined;
}

/** An open mocks file, with the host profile in force for its folder (if it can be used). */
export interface CheckedMocksFile {
  readonly document: TextDocument;
  readonly file: string;
  readonly profile: HostProfile | undefined;
}
