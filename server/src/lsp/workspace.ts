// The server's view of the workspace: which open documents are plans and which are host
// profiles, one cached analysis per plan version, debounced re-analysis as the user types,
// the settings, and host profiles found per plan and watched (on disk and in the editor) so
// that every open plan is checked again when its host changes.
// Over 400 lines because it is the one owner of the documents' lifecycle and of the events every feature listens to.

import { statSync } from "node:fs";
import { HOST_PROFILE_FILENAME, LOCK_FILENAME, MOCKS_FILE_SUFFIX } from "@rlm-plan/core/host";
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type Connection,
  type DidChangeConfigurationParams,
  type DidChangeWatchedFilesParams,
  type InitializeParams,
  type TextDocuments,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { analyzePlan, type AnalyzedPlan } from "../service/analyzedPlan";
import type { Guard } from "./guard";
import { HostProfiles, uriToPath } from "./hostProfiles";
import { forgetTree, retireTree } from "../service/recentTrees";
import { isTestFile, PLAN_FILE_SUFFIXES, TEST_FILE_SUFFIX, workspaceFileKind } from "@rlm-plan/core/workspaceFiles";
import type { CheckedHostProfile, CheckedMocksFile, RefusedPlan } from "./checkedDocuments";
import { DEFAULT_SETTINGS, isRecord, readSettings, type Settings } from "./settings";

export type { CheckedHostProfile, CheckedMocksFile, RefusedPlan } from "./checkedDocuments";
export { DEFAULT_SETTINGS, type Settings } from "./settings";

export const PLAN_LANGUAGE_ID = "rlm-plan";

type Listener<T> = (value: T) => void;

export class PlanWorkspace {
  private readonly analyses = new Map<string, { version: number; generation: number; plan: AnalyzedPlan }>();
  /** Cancels each document's scheduled check. */
  private readonly timers = new Map<string, () => void>();
  /** The last version of each document the workspace has seen, to skip repeated events. */
  private readonly seenVersions = new Map<string, number>();
  /** Each open document's size in bytes, by the version it was measured at. */
  private readonly sizes = new Map<string, { version: number; bytes: number }>();
  private readonly analyzedListeners: Listener<AnalyzedPlan>[] = [];
  private readonly refusedListeners: Listener<RefusedPlan>[] = [];
  private readonly hostCheckedListeners: Listener<CheckedHostProfile>[] = [];
  private readonly mocksCheckedListeners: Listener<CheckedMocksFile>[] = [];
  private readonly closedListeners: Listener<string>[] = [];
  private readonly otherCheckedListeners: Listener<TextDocument>[] = [];
  private readonly changedListeners: Listener<void>[] = [];
  private currentSettings: Settings = DEFAULT_SETTINGS;
  private root: string | undefined;
  private pullConfiguration = false;
  private registerDynamically = { configuration: false, watchedFiles: false };
  private settingsLoaded: Promise<void> = Promise.resolve();
  /** Whether initialize carried the settings (VS Code's client sends them in initializationOptions). */
  private settingsGiven = false;
  readonly hosts: HostProfiles;

  constructor(
    private readonly connection: Connection,
    readonly documents: TextDocuments<TextDocument>,
    private readonly guard: Guard,
  ) {
    this.hosts = new HostProfiles((file) => this.openTextOf(file));
    this.hosts.onToolsListed = () => this.revalidateAll();
    documents.onDidOpen((event) => this.guard.run("didOpen", () => this.opened(event.document)));
    documents.onDidChangeContent((event) => this.guard.run("didChange", () => this.changed(event.document)));
    documents.onDidClose((event) => this.guard.run("didClose", () => this.closed(event.document)));
    connection.onDidChangeWatchedFiles(
      guard.notification("didChangeWatchedFiles", (params) => this.filesChanged(params)),
    );
    connection.onDidChangeConfiguration(
      guard.notification("didChangeConfiguration", (params) => this.configurationChanged(params)),
    );
  }

  // ---- what features use ----------------------------------------------------------------------

  /** The client runs plans with its own command (InitializationOptions.clientRunsPlans). */
  clientRunsPlans = false;

  /** The first workspace folder, where workspace-wide features look for plans. */
  get folder(): string | undefined {
    return this.root;
  }

  get settings(): Settings {
    return this.currentSettings;
  }

  /** Plans: language `rlm-plan` or a plan's name; a test file's name wins over the language id. */
  isPlan(document: TextDocument): boolean {
    const path = document.uri.split(/[?#]/)[0] ?? "";
    return !isTestFile(path) && (document.languageId === PLAN_LANGUAGE_ID || workspaceFileKind(path) === "plan");
  }

  /** True for host profiles: any rlmplan.host.json, or the file the settings name. */
  isHostProfile(document: TextDocument): boolean {
    const file = uriToPath(document.uri);
    return file !== undefined && !this.isPlan(document) && this.hosts.isProfile(file);
  }

  /** The file of a mocks document (*.mocks.json), else undefined. */
  mocksFile(document: TextDocument): string | undefined {
    const file = uriToPath(document.uri);
    return file !== undefined && !this.isPlan(document) && file.endsWith(MOCKS_FILE_SUFFIX) ? file : undefined;
  }

  /**
   * The analysis of an open plan's current text (computed now if the cache is stale); undefined
   * for a plan over `maxAnalyzedSize`, so every feature answers it empty.
   */
  plan(uri: string): AnalyzedPlan | undefined {
    const document = this.documents.get(uri);
    if (!document || !this.isPlan(document) || this.tooLarge(document)) return undefined;
    const cached = this.analyses.get(uri);
    const generation = this.hosts.generation;
    if (cached && cached.version === document.version && cached.generation === generation) return cached.plan;
    const plan = analyzePlan(document, this.hosts.statusFor(uriToPath(uri)));
    this.analyses.set(uri, { version: document.version, generation, plan });
    return plan;
  }

  /** A document's size in UTF-8 bytes (measured once per version). */
  sizeOf(document: TextDocument): number {
    const known = this.sizes.get(document.uri);
    if (known?.version === document.version) return known.bytes;
    const bytes = Buffer.byteLength(document.getText(), "utf8");
    this.sizes.set(document.uri, { version: document.version, bytes });
    return bytes;
  }

  private tooLarge(document: TextDocument): boolean {
    return this.sizeOf(document) > this.currentSettings.maxAnalyzedSize;
  }

  /** An open plan over `maxAnalyzedSize`: its size and the limit, for the features that refuse it. */
  refused(uri: string): RefusedPlan | undefined {
    const document = this.documents.get(uri);
    if (!document || !this.isPlan(document) || !this.tooLarge(document)) return undefined;
    return { document, bytes: this.sizeOf(document), limit: this.currentSettings.maxAnalyzedSize };
  }

  /** Every open plan over `maxAnalyzedSize`. */
  refusedPlans(): RefusedPlan[] {
    return this.documents.all().flatMap((document) => this.refused(document.uri) ?? []);
  }

  /** Every open plan, analysed. */
  openPlans(): AnalyzedPlan[] {
    return this.documents.all().flatMap((document) => {
      const plan = this.isPlan(document) ? this.plan(document.uri) : undefined;
      return plan ? [plan] : [];
    });
  }

  /** The host profile file that applies to a plan document, if any. */
  hostProfileFileFor(uri: string): string | undefined {
    const file = uriToPath(uri);
    return file === undefined ? undefined : this.hosts.locate(file);
  }

  /**
   * The host profile file that applies at a document, or in a folder: a folder's own
   * rlmplan.host.json counts (a folder is not a file of its parent). Touches the disk: for
   * commands, not for every analysis.
   */
  hostProfileFileAt(uri: string): string | undefined {
    const path = uriToPath(uri);
    if (path === undefined) return undefined;
    const folder = statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
    return folder ? this.hosts.locateFrom(path) : this.hosts.locate(path);
  }

  /** Called after every (re-)analysis that diagnostics should reflect. */
  onPlanAnalyzed(listener: Listener<AnalyzedPlan>): void {
    this.analyzedListeners.push(listener);
  }

  /** Called instead of onPlanAnalyzed for a plan over `maxAnalyzedSize`. */
  onPlanRefused(listener: Listener<RefusedPlan>): void {
    this.refusedListeners.push(listener);
  }

  /** Called after an open host profile document is checked. */
  onHostProfileChecked(listener: Listener<CheckedHostProfile>): void {
    this.hostCheckedListeners.push(listener);
  }

  /** Called after an open mocks file is checked. */
  onMocksFileChecked(listener: Listener<CheckedMocksFile>): void {
    this.mocksCheckedListeners.push(listener);
  }

  /** Called when any other open document is due a check (test files: lsp/testFiles.ts). */
  onOtherDocumentChecked(listener: Listener<TextDocument>): void {
    this.otherCheckedListeners.push(listener);
  }

  /** The editor's text of an open file, else undefined (read the disk). */
  openText(file: string): string | undefined {
    return this.openTextOf(file);
  }

  /** Called with the URI of a plan or host profile document that was closed. */
  onDocumentClosed(listener: Listener<string>): void {
    this.closedListeners.push(listener);
  }

  /**
   * Called when what files that are not open report may have changed: a host profile (edited or
   * on disk), a watched file, a setting. Pull diagnostics ask the client to pull again.
   */
  onWorkspaceChanged(listener: Listener<void>): void {
    this.changedListeners.push(listener);
  }

  /** Settings are read: those pulled after initialize are in force (a request that reads them waits). */
  settingsReady(): Promise<void> {
    return this.settingsLoaded.catch(() => undefined);
  }

  /** Checks every open plan and host profile again now (a host or a setting changed). */
  revalidateAll(): void {
    for (const document of this.documents.all()) this.schedule(document, 0);
    this.workspaceChanged();
  }

  private workspaceChanged(): void {
    for (const listener of this.changedListeners) this.guard.run("workspaceChanged", () => listener());
  }

  // ---- lifecycle ---------------------------------------------------------------------------------

  initialize(params: InitializeParams): void {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    this.root = folder ? uriToPath(folder) : undefined;
    const workspace = params.capabilities.workspace;
    this.pullConfiguration = workspace?.configuration === true;
    this.registerDynamically = {
      configuration: workspace?.didChangeConfiguration?.dynamicRegistration === true,
      watchedFiles: workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    };
    const options: unknown = params.initializationOptions;
    this.clientRunsPlans = isRecord(options) && options.clientRunsPlans === true;
    const initial = isRecord(options) && isRecord(options.rlmPlan) ? options.rlmPlan : undefined;
    if (initial) this.applySettings(initial);
    this.settingsGiven = initial !== undefined;
  }

  initialized(): void {
    if (this.registerDynamically.configuration) {
      void this.connection.client.register(DidChangeConfigurationNotification.type, { section: "rlmPlan" });
    }
    if (this.registerDynamically.watchedFiles) {
      void this.connection.client.register(DidChangeWatchedFilesNotification.type, {
        // Plans and test files too: pull diagnostics report files that are not open; a lock, for its profile.
        watchers: [
          HOST_PROFILE_FILENAME,
          LOCK_FILENAME,
          ...[...PLAN_FILE_SUFFIXES, TEST_FILE_SUFFIX].map((end) => `*${end}`),
        ].map((name) => ({ globPattern: `**/${name}` })),
      });
    }
    if (this.pullConfiguration) {
      const loading = this.loadSettings();
      this.guard.run("loading settings", () => loading);
      // Settings given with initialize are the same section, read a moment earlier: the plans
      // open at the start are checked with them at once, not after a round trip to an extension
      // host that is busy starting the window (the window's first diagnostic waited on it);
      // pulled settings that differ check every document again (applySettings).
      if (!this.settingsGiven) this.settingsLoaded = loading;
    }
  }

  private async loadSettings(): Promise<void> {
    const section: unknown = await this.connection.workspace.getConfiguration("rlmPlan");
    if (isRecord(section)) this.applySettings(section);
  }

  private applySettings(raw: Record<string, unknown>): void {
    const next = readSettings(raw);
    const previous = this.currentSettings;
    this.currentSettings = next;
    if (JSON.stringify(next) !== JSON.stringify(previous)) this.workspaceChanged();
    this.hosts.configure(next.hostProfile, this.root);
    this.hosts.configureToolListing(next.listMcpTools);
    if (
      this.hosts.configureAllowedPaths(next.allowPaths, this.root) ||
      next.hostProfile !== previous.hostProfile ||
      next.hostProblemsAsErrors !== previous.hostProblemsAsErrors ||
      next.listMcpTools !== previous.listMcpTools ||
      next.maxAnalyzedSize !== previous.maxAnalyzedSize
    ) {
      this.revalidateAll();
    }
  }

  private async configurationChanged(params: DidChangeConfigurationParams): Promise<void> {
    if (this.pullConfiguration) {
      this.settingsLoaded = this.loadSettings();
      await this.settingsLoaded;
      return;
    }
    const settings: unknown = params.settings;
    if (isRecord(settings) && isRecord(settings.rlmPlan)) this.applySettings(settings.rlmPlan);
  }

  // ---- documents ---------------------------------------------------------------------------------

  private opened(document: TextDocument): void {
    this.seenVersions.set(document.uri, document.version);
    if (this.isHostProfile(document)) this.hostTextChanged(document);
    this.schedule(document, 0);
  }

  private changed(document: TextDocument): void {
    // An open event is followed by a content event for the same version: checked once on open.
    if (this.seenVersions.get(document.uri) === document.version) return;
    this.seenVersions.set(document.uri, document.version);
    // The analysis of the previous version can no longer be served: let it and its tree go now,
    // before the next one is built beside them.
    this.analyses.delete(document.uri);
    retireTree(document.uri);
    if (this.isHostProfile(document)) this.hostTextChanged(document);
    this.schedule(document, this.currentSettings.validationDelay);
  }

  private closed(document: TextDocument): void {
    this.timers.get(document.uri)?.();
    this.timers.delete(document.uri);
    this.analyses.delete(document.uri);
    forgetTree(document.uri);
    this.seenVersions.delete(document.uri);
    this.sizes.delete(document.uri);
    if (this.isHostProfile(document)) {
      // The editor's text no longer stands for the file: plans go back to what is on disk.
      const file = uriToPath(document.uri);
      if (file) this.hosts.invalidate(file);
      this.revalidateAll();
    }
    for (const listener of this.closedListeners) this.guard.run("documentClosed", () => listener(document.uri));
  }

  private hostTextChanged(document: TextDocument): void {
    const file = uriToPath(document.uri);
    if (file) this.hosts.invalidate(file);
  }

  private filesChanged(params: DidChangeWatchedFilesParams): void {
    // Plans and test files not open are read again by whoever reports them.
    if (params.changes.length > 0) this.workspaceChanged();
    let relevant = false;
    for (const change of params.changes) {
      const file = uriToPath(change.uri);
      if (file && this.hosts.fileChanged(file, change.type === FileChangeType.Changed)) relevant = true;
    }
    if (relevant) this.revalidateAll();
  }

  private schedule(document: TextDocument, delay: number): void {
    const uri = document.uri;
    this.timers.get(uri)?.();
    const run = (): void => {
      this.timers.delete(uri);
      this.guard.run("validation", () => this.validate(uri));
    };
    // No delay: after the pending I/O (further changes already received replace this check)
    // rather than through a timer, which Node clamps to at least 1 ms.
    if (delay <= 0) {
      const immediate = setImmediate(run);
      this.timers.set(uri, () => clearImmediate(immediate));
    } else {
      const timer = setTimeout(run, delay);
      this.timers.set(uri, () => clearTimeout(timer));
    }
  }

  private async validate(uri: string): Promise<void> {
    await this.settingsLoaded.catch(() => undefined);
    const document = this.documents.get(uri);
    if (!document) return;
    if (this.isPlan(document)) {
      const refused = this.refused(uri);
      if (refused) {
        for (const listener of this.refusedListeners) this.guard.run("planRefused", () => listener(refused));
        return;
      }
      const plan = this.plan(uri);
      if (plan) for (const listener of this.analyzedListeners) this.guard.run("planAnalyzed", () => listener(plan));
      return;
    }
    const mocksFile = this.mocksFile(document);
    if (mocksFile !== undefined) {
      const hostFile = this.hosts.locate(mocksFile);
      const host = hostFile === undefined ? undefined : this.hosts.resultOf(hostFile);
      const checked: CheckedMocksFile = { document, file: mocksFile, profile: host?.ok ? host.profile : undefined };
      for (const listener of this.mocksCheckedListeners) this.guard.run("mocksFileChecked", () => listener(checked));
      return;
    }
    if (this.isHostProfile(document)) {
      const file = uriToPath(uri) as string;
      const checked: CheckedHostProfile = {
        document,
        file,
        result: this.hosts.resultOf(file),
        toolListingFailures: this.hosts.toolListingFailures(file),
        lock: this.hosts.lockStatus(file),
      };
      for (const listener of this.hostCheckedListeners) this.guard.run("hostProfileChecked", () => listener(checked));
      // Plans that use this profile see its new text, open or not.
      for (const other of this.documents.all()) if (this.isPlan(other)) this.schedule(other, 0);
      this.workspaceChanged();
      return;
    }
    for (const listener of this.otherCheckedListeners) this.guard.run("documentChecked", () => listener(document));
  }

  private openTextOf(file: string): string | undefined {
    for (const document of this.documents.all()) {
      if (uriToPath(document.uri) === file) return document.getText();
    }
    return undefined;
  }
}
