// The client's side of the server's custom protocol (server/src/protocol.ts). Only the types are
// imported from there (`import type`: nothing of the server is bundled into the extension), and
// every method and command name below is typed as the server's own literal, so a rename on
// either side fails the build instead of silently dropping messages.

/* eslint-disable @typescript-eslint/no-namespace -- one namespace per message, as in the server's protocol.ts */

import type * as Server from "@rlm-plan/language-server/protocol";
import { NotificationType, RequestType } from "vscode-languageclient/node";

export type {
  HostProfileStatusParams,
  PlanGraphParams,
  PlanGraphResult,
  PlanGraphStep,
  RunFinishedParams,
  RunIdentity,
  RunEventParams,
  RunResult,
} from "@rlm-plan/language-server/protocol";

/** Process environment of the bundled server: the folder of its V8 code cache. */
export namespace CodeCacheEnvironment {
  export const variable: typeof Server.CodeCacheEnvironment.variable = "RLM_PLAN_CODE_CACHE";
}

/** `workspace/executeCommand`: start a run of an open plan; answers `{uri, runId}` at once. */
export namespace RunCommand {
  export const command: typeof Server.RunCommand.command = "rlmPlan.server.run";
  export type Arguments = Server.RunCommand.Arguments;
  export type Result = Server.RunCommand.Result;
}

/** `workspace/executeCommand`: cancel a run by id; true when it was still going. */
export namespace CancelRunCommand {
  export const command: typeof Server.CancelRunCommand.command = "rlmPlan.server.cancel";
  export type Arguments = Server.CancelRunCommand.Arguments;
}

/** The command the server's "▶ Run plan" code lens invokes, with the plan's URI. */
export namespace RunPlanClientCommand {
  export const command: typeof Server.RunPlanClientCommand.command = "rlmPlan.run";
}

/** Server → client: one event of the runtime's stream (steps started, finished, failed; failed attempts). */
export namespace RunEventNotification {
  export const method: typeof Server.RunEventNotification.method = "rlmPlan/runEvent";
  export const type = new NotificationType<Server.RunEventParams>(method);
}

/** Server → client: a run ended with its value or its structured error (also when cancelled). */
export namespace RunFinishedNotification {
  export const method: typeof Server.RunFinishedNotification.method = "rlmPlan/runFinished";
  export const type = new NotificationType<Server.RunFinishedParams>(method);
}

/** Client → server: the host profile in force for a plan (null when none was found). */
export namespace HostProfileRequest {
  export const method: typeof Server.HostProfileRequest.method = "rlmPlan/hostProfile";
  export const type = new RequestType<{ readonly uri: string }, Server.HostProfileStatusParams, void>(method);
}

/** Client → server: the host profile's providers and their key variables (never a key). */
export namespace HostProvidersRequest {
  export type Provider = Server.HostProvidersRequest.Provider;
  export const method: typeof Server.HostProvidersRequest.method = "rlmPlan/hostProviders";
  export const type = new RequestType<Server.HostProvidersRequest.Params, Server.HostProvidersRequest.Result, void>(
    method,
  );
}

/** `workspace/executeCommand`: ask a provider of the host profile for a plan for a goal. */
export namespace ProposePlanCommand {
  export const command: typeof Server.ProposePlanCommand.command = "rlmPlan.server.proposePlan";
  export type Arguments = Server.ProposePlanCommand.Arguments;
  export type Result = Server.ProposePlanCommand.Result;
}

/** Client → server: the plan's graph (the runtime's graph model, with LSP ranges); null for other files. */
export namespace PlanGraphRequest {
  export const method: typeof Server.PlanGraphRequest.method = "rlmPlan/planGraph";
  export const type = new RequestType<Server.PlanGraphParams, Server.PlanGraphResult | null, void>(method);
}

/** Client → server: the plan's worst case as figures and budget rows; null when there is none. */
export namespace WorstCaseRequest {
  export const method: typeof Server.WorstCaseRequest.method = "rlmPlan/worstCase";
  export type Result = Server.WorstCaseRequest.Result;
  export const type = new RequestType<Server.WorstCaseRequest.Params, Result | null, void>(method);
}

/** Client → server: the text of a host profile that grants what a plan uses. */
export namespace HostProfileTemplateRequest {
  export const method: typeof Server.HostProfileTemplateRequest.method = "rlmPlan/hostProfileTemplate";
  export type Result = Server.HostProfileTemplateRequest.Result;
  export const type = new RequestType<Server.HostProfileTemplateRequest.Params, Result, void>(method);
}

export type { TestCaseRunResult, TestFileCase } from "@rlm-plan/language-server/protocol";

/** Client → server: the cases of a test file (open or on disk); nothing runs. */
export namespace TestFileRequest {
  export const method: typeof Server.TestFileRequest.method = "rlmPlan/testFile";
  export const type = new RequestType<Server.TestFileRequest.Params, Server.TestFileRequest.Result, void>(method);
}

/** Client → server: run cases of a test file through the core's runner; answers when they ended. */
export namespace RunTestCasesRequest {
  export const method: typeof Server.RunTestCasesRequest.method = "rlmPlan/runTestCases";
  export const type = new RequestType<Server.RunTestCasesRequest.Params, Server.RunTestCasesRequest.Result, void>(
    method,
  );
}

/** The client commands a test case's "Run" and "Debug" code lenses name. */
export namespace RunTestCaseClientCommand {
  export const command: typeof Server.RunTestCaseClientCommand.command = "rlmPlan.runTestCase";
}
export namespace DebugTestCaseClientCommand {
  export const command: typeof Server.DebugTestCaseClientCommand.command = "rlmPlan.debugTestCase";
}
