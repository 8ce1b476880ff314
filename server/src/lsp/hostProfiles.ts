// Host profiles as the server sees them: which profile applies to a plan file (the setting, or
// the nearest rlmplan.host.json walking up), each profile parsed once with the runtime's loader
// (from the editor's text when the file is open, from disk otherwise), and the view features use.

import { basename, dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  allowOutsidePaths,
  discoverMcpTools,
  LOCK_FILENAME,
  profileLockStatus,
  type HostProfile,
  type HostProfileResult,
  type McpDiscovery,
  type ProfileLockStatus,
} from "@rlm-plan/core/host";
import { HOST_PROFILE_FILENAME, hostProfileIn, readHostProfile } from "@rlm-plan/core/session";
import { hostStatusOf, type HostStatus } from "../service/hostView";

export { HOST_PROFILE_FILENAME };

/** The file path of a `file:` URI; undefined for other schemes (untitled documents). */
export function uriToPath(uri: string): string | undefined {
  // An unsaved document that already has a place (VS Code's `untitled:/folder/name`, what Propose
  // Plan opens) is treated as the file it will be saved as: its folder's host profile applies.
  if (uri.startsWith("untitled:/")) return untitledPath(uri);
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function untitledPath(uri: string): string | undefined {
  try {
    return fileURLToPath(`file://${uri.slice("untitled:".length)}`);
  } catch {
    return undefined;
  }
}

export class HostProfiles {
  private readonly parsed = new Map<
    string,
    { result: HostProfileResult; status: HostStatus; lock?: ProfileLockStatus | undefined }
  >();
  /** Folder → the profile found walking up from it (or none); cleared when files come or go. */
  private readonly discovered = new Map<string, string | undefined>();
  private configured: string | undefined;
  /** The allowed folders last handed to the boundary, with the root they are relative to. */
  private allowed = JSON.stringify([[], undefined]);
  /**
   * MCP tool listings per profile file, for the profile object they were made from: at most one
   * listing runs per profile, and a listing of a profile edited since is dropped.
   */
  private readonly listings = new Map<string, { profile: HostProfile; done: McpDiscovery | undefined }>();
  private listTools = false;
  /** Called with each profile read: the server's mask learns its providers' key variables. */
  onProfileRead: ((profile: HostProfile) => void) | undefined;
  /** Called when a listing finishes, so open plans are checked again with what it found. */
  onToolsListed: (() => void) | undefined;
  /** Bumped on every change, so cached analyses know they are stale. */
  generation = 0;

  /** `openText(file)` is the editor's text of a file that is open, undefined otherwise. */
  constructor(private readonly openText: (file: string) => string | undefined) {}

  /** The `rlmPlan.hostProfile` setting; relative paths are resolved against `root`. */
  configure(setting: string | undefined, root: string | undefined): void {
    const next =
      setting && setting.trim() !== "" ? (isAbsolute(setting) ? setting : resolve(root ?? ".", setting)) : undefined;
    if (next !== this.configured) {
      this.configured = next;
      this.changed();
    }
  }

  /**
   * Whether the server may start the profiles' MCP servers to list their tools (it runs programs
   * of the workspace, so a client turns it on: the rlmPlan.listMcpTools setting).
   */
  configureToolListing(enabled: boolean): void {
    if (enabled === this.listTools) return;
    this.listTools = enabled;
    this.parsed.clear();
    this.changed();
  }

  /**
   * The folders outside the workspace that profiles may name (the user setting rlmPlan.allowPaths,
   * relative ones under `root`): handed to the core's workspace boundary, and every profile read
   * again under it. Whether they changed.
   */
  configureAllowedPaths(dirs: readonly string[], root: string | undefined): boolean {
    const key = JSON.stringify([dirs, root]);
    if (key === this.allowed) return false;
    this.allowed = key;
    allowOutsidePaths(dirs, root ?? process.cwd());
    this.parsed.clear();
    this.changed();
    return true;
  }

  /** True when `file` is a host profile: the configured one or any rlmplan.host.json. */
  isProfile(file: string): boolean {
    return (
      basename(file) === HOST_PROFILE_FILENAME || (this.configured !== undefined && resolve(file) === this.configured)
    );
  }

  /** The profile file that applies to a plan file, if any. */
  locate(planFile: string): string | undefined {
    return this.locateFrom(dirname(resolve(planFile)));
  }

  /** The profile file that applies in a folder (the setting, or the nearest from the folder up). */
  locateFrom(folder: string): string | undefined {
    if (this.configured) return this.configured;
    const dir = resolve(folder);
    if (!this.discovered.has(dir)) this.discovered.set(dir, hostProfileIn(dir));
    return this.discovered.get(dir);
  }

  /** The host status of a plan file (undefined path: an unsaved document, so no host). */
  statusFor(planFile: string | undefined): HostStatus {
    const file = planFile === undefined ? undefined : this.locate(planFile);
    return file === undefined ? { kind: "none" } : this.load(file).status;
  }

  /** The runtime loader's result for a profile file (what its own diagnostics show). */
  resultOf(file: string): HostProfileResult {
    return this.load(file).result;
  }

  /** Why MCP servers of a profile could not list their tools (starting the listing if needed). */
  toolListingFailures(file: string): ReadonlyMap<string, string> {
    const { result } = this.load(file);
    return (result.ok ? this.listing(resolve(file), result.profile)?.failures : undefined) ?? new Map();
  }

  /**
   * How a valid profile stands against its lock (rlmplan.lock.json beside it), from files alone:
   * nothing is started (host/lock/profileDrift.ts). Read once per parse of the profile and again
   * when the lock changes (\`invalidate\`).
   */
  lockStatus(file: string): ProfileLockStatus | undefined {
    const entry = this.load(file);
    if (!entry.result.ok) return undefined;
    if (!("lock" in entry)) entry.lock = profileLockStatus(entry.result.profile);
    return entry.lock;
  }

  /**
   * A watched file changed on disk (`changed`), or came or went: a profile is read again (or
   * profiles found again), and a lock (`rlm-plan lock` in a terminal) makes the profiles beside it
   * compared with it again. Whether it was one of theirs.
   */
  fileChanged(file: string, changed: boolean): boolean {
    if (basename(file) === LOCK_FILENAME) {
      for (const parsed of this.parsed.keys())
        if (dirname(parsed) === dirname(resolve(file))) this.parsed.delete(parsed);
      this.changed();
    } else if (!this.isProfile(file)) return false;
    else if (changed) this.invalidate(file);
    else this.rediscover();
    return true;
  }

  /** A profile's text changed (edited, saved, created or deleted): parse it again. */
  invalidate(file: string): void {
    this.parsed.delete(resolve(file));
    this.changed();
  }

  /** Profiles may have appeared or disappeared: forget what discovery found. */
  rediscover(): void {
    this.discovered.clear();
    this.parsed.clear();
    this.changed();
  }

  private changed(): void {
    this.generation++;
  }

  /** What the profile's MCP servers listed: started on first need, undefined until it ends. */
  private listing(file: string, profile: HostProfile): McpDiscovery | undefined {
    if (!this.listTools || profile.mcpServers.size === 0) return undefined;
    const known = this.listings.get(file);
    if (known && sameServers(known.profile, profile)) return known.done;
    const entry: { profile: HostProfile; done: McpDiscovery | undefined } = { profile, done: undefined };
    this.listings.set(file, entry);
    void discoverMcpTools(profile).then((done) => {
      if (this.listings.get(file) !== entry) return;
      entry.done = done;
      this.parsed.delete(file);
      this.changed();
      this.onToolsListed?.();
    });
    return undefined;
  }

  private load(file: string): { result: HostProfileResult; status: HostStatus; lock?: ProfileLockStatus | undefined } {
    const key = resolve(file);
    let entry = this.parsed.get(key);
    if (!entry) {
      const text = this.openText(key);
      const result = readHostProfile(key, text);
      if (result.ok) this.onProfileRead?.(result.profile);
      const listing = result.ok ? this.listing(key, result.profile) : undefined;
      entry = { result, status: hostStatusOf(key, result, listing) };
      this.parsed.set(key, entry);
    }
    return entry;
  }
}

/** Edits elsewhere in a profile do not start its servers again. */
function sameServers(a: HostProfile, b: HostProfile): boolean {
  return a.dir === b.dir && JSON.stringify([...a.mcpServers]) === JSON.stringify([...b.mcpServers]);
}
