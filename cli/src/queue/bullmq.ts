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
 * How long Redis has to accept a connection, and to answer any command that does not block: a
 * port where something accepts and never answers is said within this, never waited on.
 */
export const REDIS_TIMEOUT_MS = 5000;

/**
 * The connection options of an address. BullMQ's blocking connections (a Worker's, QueueEvents')
 * need `maxRetriesPerRequest: null` and no command timeout (their commands wait on purpose);
 * every other client (a Queue, the ceiling's counter, the first ping) fails a command Redis does
 * not answer within REDIS_TIMEOUT_MS, and a wrong address is said at once.
 */
export function connectionOf(address: QueueAddress, role: "blocking" | "commands"): ConnectionOptions {
  return {
    host: address.host,
    port: address.port,
    ...(address.username !== undefined ? { username: address.username } : {}),
    ...(address.password !== undefined ? { password: address.password } : {}),
    ...(address.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: role === "blocking" ? null : 3,
    ...(role === "commands" ? { commandTimeout: REDIS_TIMEOUT_MS } : {}),
    connectTimeout: REDIS_TIMEOUT_MS,
    // Never a stack of ioredis's reconnection logs: the command says what happened itself.
    lazyConnect: false,
  };
}

/** The Redis key prefix every queue of rlm-plan lives under (BullMQ's own default is "bull"). */
export const KEY_PREFIX = "rlm-plan";

/** Thrown when Redis (or what listens at its address) does not answer in time. */
export class RedisSilent extends Error {}

/**
 * `ready` (a connection's first answer), or a RedisSilent error once REDIS_TIMEOUT_MS has passed:
 * something that accepts connections and never answers is said, never waited on. `giveUp` runs
 * then (it drops the connections).
 */
export async function answeredWithin<T>(address: QueueAddress, ready: Promise<T>, giveUp: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      giveUp();
      reject(
        new RedisSilent(
          `no answer within ${REDIS_TIMEOUT_MS / 1000} s: something accepts connections at ${address.host}:${address.port} but does not answer as Redis`,
        ),
      );
    }, REDIS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([ready, silent]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connects a plain client and asks Redis once, without retrying: a wrong address or password
 * is said at once (Redis's own words, which never hold the password), a silent one within
 * REDIS_TIMEOUT_MS. The caller owns the client.
 */
export async function connectClient(address: QueueAddress): Promise<import("ioredis").Redis> {
  const { Redis } = ioredis();
  const client = new Redis({
    ...(connectionOf(address, "commands") as object),
    lazyConnect: true,
    retryStrategy: () => null,
  });
  // The connection's own error (ECONNREFUSED, WRONGPASS) says more than "Connection is closed".
  let first: Error | undefined;
  client.on("error", (error: Error) => void (first ??= error));
  try {
    await answeredWithin(
      address,
      client.connect().then(() => client.ping()),
      () => client.disconnect(),
    );
  } catch (error) {
    client.disconnect();
    throw error instanceof RedisSilent ? error : (first ?? error);
  }
  // Once it answered, a dropped connection is tried again (a worker lives long).
  client.options.retryStrategy = (times: number) => Math.min(times * 200, 2000);
  return client;
}
