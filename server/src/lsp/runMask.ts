// The server's side of the output boundary for runs: every notification a run sends (steps,
// transitions, the outcome) passes through the run's session mask: the keys the client passed
// for the run and the provider keys of the server's environment (the core's session).

import type { SecretMask } from "@rlm-plan/core/secrets";
import type { PlanRunnerHost } from "./runnerHost";

/** The same host with its run notifications masked. */
export function maskedRunnerHost(host: PlanRunnerHost, mask: SecretMask): PlanRunnerHost {
  return {
    ...host,
    plan: (uri) => host.plan(uri),
    hostProfileFileFor: (uri) => host.hostProfileFileFor(uri),
    hostProfile: (file) => host.hostProfile(file),
    event: (params) => host.event(mask.maskValue(params)),
    finished: (params) => host.finished(mask.maskValue(params)),
  };
}
