// The `rlmPlan` settings the server works under: their defaults, and the client's section read
// with a value of the wrong type falling back to its default.

import { DEFAULT_LARGE_PLAN_SIZE, DEFAULT_MAX_ANALYZED_SIZE } from "../service/sizeLimits";

/** The `rlmPlan` settings in force (protocol.ts documents each one). */
export interface Settings {
  readonly hostProfile: string | undefined;
  readonly hostProblemsAsErrors: boolean;
  readonly validationDelay: number;
  /** Whether the server may start the host profile's MCP servers to list their tools. */
  readonly listMcpTools: boolean;
  /** Bytes (UTF-8) past which a plan is not analysed (service/sizeLimits.ts). */
  readonly maxAnalyzedSize: number;
  /** Bytes past which a plan's semantic tokens are given by range only. */
  readonly largePlanSize: number;
  /** Folders outside the workspace that paths in workspace files may name (the user's setting only). */
  readonly allowPaths: readonly string[];
  /** Files (plans, host profiles, test files) a workspace/diagnostic report covers at most. */
  readonly maxWorkspaceDiagnosticFiles: number;
  /** Inlay hints with each binding's type (off unless the user turns them on). */
  readonly bindingTypeHints: boolean;
  /** The git commit-ish the what-if lens compares plans with; undefined when turned off (""). */
  readonly whatIfBase: string | undefined;
}

export const DEFAULT_SETTINGS: Settings = {
  hostProfile: undefined,
  hostProblemsAsErrors: false,
  validationDelay: 150,
  listMcpTools: false,
  maxAnalyzedSize: DEFAULT_MAX_ANALYZED_SIZE,
  largePlanSize: DEFAULT_LARGE_PLAN_SIZE,
  allowPaths: [],
  maxWorkspaceDiagnosticFiles: 2000,
  bindingTypeHints: false,
  whatIfBase: "HEAD",
};

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `rlmPlan` section (see RlmPlanSettings); values of the wrong type fall back to defaults. */
export function readSettings(raw: Record<string, unknown>): Settings {
  const delay = raw.validationDelay;
  const size = (value: unknown, fallback: number): number =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    hostProfile: typeof raw.hostProfile === "string" ? raw.hostProfile : undefined,
    hostProblemsAsErrors:
      typeof raw.hostProblemsAsErrors === "boolean" ? raw.hostProblemsAsErrors : DEFAULT_SETTINGS.hostProblemsAsErrors,
    validationDelay:
      typeof delay === "number" && Number.isFinite(delay) && delay >= 0 ? delay : DEFAULT_SETTINGS.validationDelay,
    listMcpTools: raw.listMcpTools === true,
    maxAnalyzedSize: size(raw.maxAnalyzedSize, DEFAULT_SETTINGS.maxAnalyzedSize),
    largePlanSize: size(raw.largePlanSize, DEFAULT_SETTINGS.largePlanSize),
    allowPaths: Array.isArray(raw.allowPaths)
      ? raw.allowPaths.filter((dir): dir is string => typeof dir === "string" && dir !== "")
      : [],
    maxWorkspaceDiagnosticFiles: Math.floor(
      size(raw.maxWorkspaceDiagnosticFiles, DEFAULT_SETTINGS.maxWorkspaceDiagnosticFiles),
    ),
    bindingTypeHints: isRecord(raw.inlayHints) && raw.inlayHints.bindingTypes === true,
    whatIfBase: whatIfBaseOf(raw.whatIf),
  };
}

/** `whatIf.base`: a commit-ish, "" for off; anything else (or nothing) the default, HEAD. */
function whatIfBaseOf(whatIf: unknown): string | undefined {
  const base = isRecord(whatIf) ? whatIf.base : undefined;
  if (typeof base !== "string") return DEFAULT_SETTINGS.whatIfBase;
  return base.trim() === "" ? undefined : base.trim();
}
