// The server's side of the output boundary for runs: every notification a run sends (its
// events, the outcome) has the run's secrets masked: the keys the client passed for the run
// and the provider keys of the server's environment (shared-runtime run/secrets.ts).

import type { HostProfile } from "@rlm-plan/core/host/profile";
import { environmentSecrets, SecretMask } from "@rlm-plan/core/run/secrets";
import type { PlanRunnerHost } from "./runPlan";

/** The mask of one run: the client's variables are secret whatever their names. */
export function runSecrets(clientEnv: Readonly<Record<string, string>>, profile: HostProfile): SecretMask {
  return new SecretMask([
    ...Object.values(clientEnv),
    ...environmentSecrets({ ...process.env, ...clientEnv }, profile),
  ]);
}

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
