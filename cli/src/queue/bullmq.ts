// Loads BullMQ and ioredis the first time a queue is used (`worker`, `run --queue`, `test
// --queue`), never when the command starts: other commands do not pay for them. The CLI's bundle
// keeps both external (scripts/bundle-cli.mjs); types come from the packages directly.

import type { ConnectionOptions } from "bullmq";
import type { QueueAddress } from "./queueUrl";

type BullMq = typeof import("bullmq");
type IoRedis = typeof import("ioredis");

let bull: BullMq | undefined;
let io: IoRedis | undefined;

export function bullmq(): BullMq {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  bull ??= require("bullmq") as BullMq;
  return bull;
}

export function ioredis(): IoRedis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  io ??= require("ioredis") as IoRedis;
  return io;
}

/**
 * The connection options of an address. BullMQ's blocking connections need
 * `maxRetriesPerRequest: null` (requests wait for Redis to come back); a plain client (the
 * ceiling's counter, the first ping) fails after a few tries, so a wrong address is said at once.
 */
export function connectionOf(address: QueueAddress, role: "bullmq" | "client"): ConnectionOptions {
  return {
    host: address.host,
    port: address.port,
    ...(address.username !== undefined ? { username: address.username } : {}),
    ...(address.password !== undefined ? { password: address.password } : {}),
    ...(address.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: role === "bullmq" ? null : 3,
    connectTimeout: 5000,
    // Never a stack of ioredis's reconnection logs: the command says what happened itself.
    lazyConnect: false,
  };
}

/** The Redis key prefix every queue of rlm-plan lives under (BullMQ's own default is "bull"). */
export const KEY_PREFIX = "rlm-plan";

/**
 * Connects a plain client and asks Redis once, without retrying: a wrong address or password
 * is said at once (Redis's own words, which never hold the password). The caller owns the client.
 */
export async function connectClient(address: QueueAddress): Promise<import("ioredis").Redis> {
  const { Redis } = ioredis();
  const client = new Redis({
    ...(connectionOf(address, "client") as object),
    lazyConnect: true,
    retryStrategy: () => null,
  });
  // The connection's own error (ECONNREFUSED, WRONGPASS) says more than "Connection is closed".
  let first: Error | undefined;
  client.on("error", (error: Error) => void (first ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw first ?? error;
  }
  // Once it answered, a dropped connection is tried again (a worker lives long).
  client.options.retryStrategy = (times: number) => Math.min(times * 200, 2000);
  return client;
}
