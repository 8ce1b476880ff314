// What each plan scenario calls (test/service/golden/plans/), against golden files: every tool
// and provider call with its name's range and the plan it is made in, and every sub-plan (rlm,
// retry, each parallel branch) with the plan holding it: what the call hierarchy and a host
// profile's references are built from.

import { planCalls } from "@rlm-plan/language-server/service/planCalls";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("plan-calls", ({ plan, readable }) => readable(planCalls(plan)));
