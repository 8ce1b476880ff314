// Host profiles and the run hosts built from them: what a workspace grants its plans.

export * from "./profile";
export * from "./builtinTools";
export {
  COMMAND_TOOL_DEFAULTS,
  createCommandTool,
  programProblem,
  toolEnv,
  type CommandToolOptions,
} from "./commandTool";
export { KILL_GRACE_MS, killAllGroupsNow, ProcessTracker } from "./processGroup";
export { discoverMcpTools, type McpDiscovery } from "./mcp/discovery";
export { mcpRoute, type McpToolRoute } from "./mcp/spec";
export { sandboxAvailability, type SandboxAvailability } from "./sandbox/sandboxProbe";
export { describeSandbox, toolSandbox, type SandboxHost, type ToolSandbox } from "./sandbox/toolSandbox";
export { profileLockStatus, type ProfileLockStatus } from "./lock/profileDrift";
export { LOCK_FILENAME } from "./lock/lockFormat";
export type { PinChange, PinSubject } from "./lock/lockDrift";

export { loadInput, textFileInput, type InputResult } from "./inputs";
export { givenInputProblem } from "./inputValues";
export { readErrorText } from "./checkedJsonFile";
export * from "./createHost";
export * from "./mocks";
export { hostPreflight, mcpPreflight, type HostPreflightOptions } from "./hostPreflight";
export * from "./mockNames";
export {
  ALLOW_PATH_HINT,
  allowOutsidePaths,
  allowedOutsidePaths,
  workspacePath,
  workspaceRootOf,
  type WorkspacePath,
} from "./workspaceBoundary";
