// `rlm-plan-debug-adapter`: the debug adapter over stdin/stdout, for any DAP client.

import { DebugSession } from "@vscode/debugadapter";
import { RlmPlanDebugSession } from "./session";

export function runDebugAdapter(): void {
  DebugSession.run(RlmPlanDebugSession);
}

if (require.main === module) runDebugAdapter();
