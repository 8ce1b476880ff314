// What a front end gives to open a plan session, and why a session could not open: the types
// the opening (openSession.ts) and the session (planSession.ts) share.

import type { McpDiscovery } from "../host/mcp/discovery";
import type { HostProfileError, HostProfileResult } from "../host/profile";
import type { JsonValue } from "../json";
import type { HostFactory } from "../run/startRun";
import type { SecretMask } from "../mask/secretMask";
import type { PlanDocument } from "../text/planDocument";
import type { PolicyOverrides } from "./analysisPolicy";

export interface PlanSessionOptions {
  /** The plan file: read bounded, unless `text` is given; the host profile is looked for above it. */
  readonly file?: string;
  /** The plan's text (an editor's buffer, a proposal); without `file` nor `text` the session has no plan (propose). */
  readonly text?: string;
  /** The text's parsed document, when the caller has one. */
  readonly document?: PlanDocument;
  /** The host profile file to use (relative to `cwd`); default the nearest one above the plan (or in `cwd`). */
  readonly hostProfile?: string;
  /** The profile already read (an editor's text of it): `hostProfile` is then its file. */
  readonly profile?: HostProfileResult;
  /** Whether a missing host profile is a failure (runs, preflight, propose); default true. */
  readonly requireHost?: boolean;
  /** Where relative paths are resolved; default the current folder. */
  readonly cwd?: string;
  /** The environment tools inherit and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Variables a client passes for this session only (keys from its secret storage): secret, whatever their names. */
  readonly clientEnv?: Readonly<Record<string, string>>;
  /** Input name -> text file (relative to `cwd`) replacing or adding an input. */
  readonly inputFiles?: Readonly<Record<string, string>>;
  /** Input name -> value replacing or adding an input (a queued job's inputs, like a test case's). */
  readonly inputValues?: Readonly<Record<string, JsonValue>>;
  /** A mocks file (relative to `cwd`, read bounded), or mocks given as a value. */
  readonly mocks?: { readonly file: string } | { readonly value: unknown; readonly name: string };
  /** Capabilities or budget overriding the profile's (check's --capabilities, --budget). */
  readonly overrides?: PolicyOverrides;
  /** What the profile's MCP servers listed (an editor that asked them): typed MCP tool arguments. */
  readonly discovery?: McpDiscovery;
  /** Build every input the profile declares, not only those the plan reads (a debugger shows them all). */
  readonly allInputs?: boolean;
  /** A host built elsewhere over the profile (a test case's: its inputs, mocks or cassette); runs use it. */
  readonly host?: HostFactory;
  /** A mask the front end already guards its output with: the session adds what it learns to it. */
  readonly mask?: SecretMask;
}

export type SessionFailure =
  | {
      readonly kind: "plan_unreadable";
      readonly file: string;
      readonly message: string;
      /** Why, without the file: "no such file (ENOENT)". */
      readonly reason: string;
      /** The system's error code (ENOENT, EISDIR, ENOTREG, EFBIG, ...), when there is one. */
      readonly code?: string;
    }
  | { readonly kind: "no_host_profile"; readonly message: string }
  | { readonly kind: "invalid_host_profile"; readonly file: string; readonly errors: readonly HostProfileError[] }
  | { readonly kind: "invalid_mocks"; readonly file: string; readonly errors: readonly HostProfileError[] };
