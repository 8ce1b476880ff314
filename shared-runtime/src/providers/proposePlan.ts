// Asking a host's model provider for one plan for a goal: the prompt (the host's grants, names
// and budget, never an input's contents), one chat call, and the reply read as a checked
// proposal (with the plan's JSON Schema as response_format where the provider takes it). What
// `rlm-plan propose` and the editors' "Propose Plan" share; nothing runs here.

import type { HostProfile } from "../host/profile";
import type { JsonValue } from "../json";
import { DEFAULT_BUDGET, resolveBudget } from "../plan/budget";
import { quoted } from "../plan/problems";
import { safeErrorText } from "../run/errors";
import type { PolicyOptions } from "../run/pipeline";
import { createOpenAIChatProvider, openAIChatSpecProblem } from "./openaiChat";
import { buildPlanPrompt } from "./planPrompt";
import { proposalOptions } from "./planResponseFormat";
import { promptHost } from "./promptHost";
import { readProposal, type Proposal } from "./proposal";

export interface ProposeRequest {
  readonly goal: string;
  readonly profile: HostProfile;
  /** A provider the profile declares. */
  readonly provider: string;
  /** Where the provider's key is read from. */
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /** What the proposal is checked against: the session's run policy (capabilities, budget). */
  readonly policy: PolicyOptions;
}

export type ProposeResult =
  | { readonly ok: true; readonly reply: string; readonly proposal: Proposal }
  /** The provider could not be asked, or did not answer with text: a message safe to show. */
  | { readonly ok: false; readonly error: string };

export async function proposePlan(request: ProposeRequest): Promise<ProposeResult> {
  const { profile, provider: name } = request;
  const spec = profile.providers.get(name);
  if (!spec) {
    const names = [...profile.providers.keys()];
    const known = names.length > 0 ? `its providers are ${names.join(", ")}` : "it declares no providers";
    return { ok: false, error: `the host profile has no provider ${quoted(name)}: ${known}` };
  }
  const problem = openAIChatSpecProblem(spec);
  if (problem) return { ok: false, error: `provider ${quoted(name)}: ${problem}` };
  const policy = request.policy;
  const budget = resolveBudget(policy.budget);
  const prompt = buildPlanPrompt(request.goal, promptHost(profile, budget.ok ? budget.budget : DEFAULT_BUDGET));
  const options = proposalOptions(spec);
  let reply: string | undefined;
  try {
    const value = await createOpenAIChatProvider(spec, request.env).complete(
      { messages: [{ role: "user", content: prompt }], options },
      { signal: request.signal ?? new AbortController().signal, provider: name },
    );
    reply = replyText(value);
  } catch (error) {
    return { ok: false, error: `provider ${quoted(name)} failed: ${safeErrorText(error)}` };
  }
  if (reply === undefined) return { ok: false, error: `provider ${quoted(name)} answered without text` };
  return { ok: true, reply, proposal: readProposal(reply, policy) };
}

/** A provider's answer as text: the string itself, or the `text` of a chat answer. */
export function replyText(value: JsonValue): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const text = Object.prototype.hasOwnProperty.call(value, "text") ? value.text : undefined;
    return typeof text === "string" ? text : undefined;
  }
  return undefined;
}
