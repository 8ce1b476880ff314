// The fleet-wide ceiling of a test run: how many model (or tool) calls every worker together may
// make for it, and how much money (cost: each model call holds its worst case, then its cost). Each live call first takes one unit from a counter in Redis in one Lua script
// (read, compare, increment: atomic on the server), so no two workers can both take the last
// unit; a call refused there is never made and fails its step with a message naming the ceiling.
// Mocked providers and tools spend nothing, and calls a resumed run answers from its journal
// never reach this wrapper (the recorder, the outer wrapper, answers them first).

import type { CallInterceptor, ModelCall, RunObserver } from "@rlm-plan/core/run";
import {
  amountText,
  callUsage,
  inputTokenBound,
  outputTokenBound,
  unpricedReason,
  worstCallCost,
} from "@rlm-plan/core/plan";
import type { Mocks } from "@rlm-plan/core/session";
import type { Redis } from "ioredis";
import { KEY_PREFIX } from "./bullmq";
import type { CeilingCounter, FleetCeiling } from "./planJob";

// KEYS[1] the counter; ARGV[1] the limit, ARGV[2] how long the counter is kept (ms).
const TAKE_UNIT = `
local limit = tonumber(ARGV[1])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= limit then return -1 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return used + 1`;

// The money counter: KEYS[1]; ARGV[1] the limit, ARGV[2] how long it is kept (ms), ARGV[3] the
// call's worst case, held until the call settles (then replaced by what it cost).
const HOLD_MONEY = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used + tonumber(ARGV[3]) > tonumber(ARGV[1]) then return -1 end
redis.call('INCRBYFLOAT', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** A day: long enough for any test run, short enough that counters do not pile up. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/** The Redis key of a ceiling's counter: built by the worker, never taken from the job. */
export function ceilingKey(queue: string, id: string, counter: CeilingCounter): string {
  return `${KEY_PREFIX}:${queue}:ceiling:${id}:${counter}`;
}

/** What a refused call fails with. */
export class CeilingReached extends Error {}

/** The observer that makes every live call of a run take its unit first. */
export function ceilingObserver(
  redis: Redis,
  queue: string,
  ceiling: FleetCeiling,
  mocks: Mocks | undefined,
): RunObserver {
  const money = ceiling.limits.cost;
  const call: CallInterceptor = async (hostCall, proceed) => {
    const counted = async () => {
      const live = hostCall.kind === "model" && money !== undefined && mocks?.providers?.has(hostCall.name) !== true;
      return live ? spendMoney(redis, ceilingKey(queue, ceiling.id, "cost"), money, hostCall, proceed) : proceed();
    };
    const counter: CeilingCounter = hostCall.kind === "model" ? "model_calls" : "tool_calls";
    const limit = ceiling.limits[counter];
    const mocked = (hostCall.kind === "model" ? mocks?.providers : mocks?.tools)?.has(hostCall.name) === true;
    if (limit === undefined || mocked) return counted();
    const used = (await redis.eval(TAKE_UNIT, 1, ceilingKey(queue, ceiling.id, counter), limit, KEEP_MS)) as number;
    if (used < 0)
      throw new CeilingReached(
        `the fleet ceiling of ${limit} ${counter === "model_calls" ? "model" : "tool"} call${limit === 1 ? "" : "s"} for this test run is reached (counted in Redis across every worker); this call was not made`,
      );
    return counted();
  };
  return { call };
}

/**
 * A model call under a money ceiling: its worst case (plan/modelCost.ts) is held in Redis before
 * it is made, then replaced by what it cost (a failed call gives it back), so concurrent workers
 * never go over together.
 */
async function spendMoney(
  redis: Redis,
  key: string,
  limit: number,
  call: ModelCall,
  proceed: () => Promise<unknown>,
): Promise<unknown> {
  const { request, costing } = call;
  const maxTokens = outputTokenBound(request.options, costing);
  const worst = worstCallCost(costing, inputTokenBound(request.messages), maxTokens);
  if (worst === undefined)
    throw new CeilingReached(
      `the fleet ceiling is in money, but this call has no worst case: ${unpricedReason(call.name, costing, maxTokens) ?? "it has no price"}; this call was not made`,
    );
  const held = (await redis.eval(HOLD_MONEY, 1, key, limit, KEEP_MS, worst)) as number;
  if (held < 0)
    throw new CeilingReached(
      `the fleet ceiling of ${amountText(limit)} in money for this test run would be crossed by this call's worst case of ${amountText(worst)} (counted in Redis across every worker); this call was not made`,
    );
  let cost = 0;
  try {
    const reply = await proceed();
    cost = callUsage(reply, request, costing).cost ?? worst;
    return reply;
  } finally {
    await redis.incrbyfloat(key, cost - worst).catch(() => undefined);
  }
}
