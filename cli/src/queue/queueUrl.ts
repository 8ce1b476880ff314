// A queue's address, `redis://[USER[:PASSWORD]@]HOST:PORT/QUEUE` (`rediss://` for TLS): the
// Redis connection and the BullMQ queue name. Its password is a secret like a provider key: it
// is shown as `***` and added to the command's mask, so no output, error or journal holds it.
// A password in the URL shows in `ps`, so it may come from a file (--redis-password-file) or
// the environment (RLM_PLAN_REDIS_PASSWORD) instead.

import { readTextFileSync } from "@rlm-plan/core/text";

export interface QueueAddress {
  readonly host: string;
  readonly port: number;
  readonly queue: string;
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
  /** The address as printed: the password (if any) as ***. */
  readonly shown: string;
}

const QUEUE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export const QUEUE_URL_FORM = "redis://HOST:PORT/QUEUE (redis://USER:PASSWORD@HOST:PORT/QUEUE, rediss:// for TLS)";

/** The address, or a message saying what is wrong (never quoting the password). */
export function parseQueueUrl(text: string): QueueAddress | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `--queue needs ${QUEUE_URL_FORM}`;
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    return `--queue needs a redis:// or rediss:// URL, not ${url.protocol}//; ${QUEUE_URL_FORM}`;
  const password = url.password === "" ? undefined : decodeURIComponent(url.password);
  const username = url.username === "" ? undefined : decodeURIComponent(url.username);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port === "" ? 6379 : Number(url.port);
  const queue = decodeURIComponent(url.pathname.replace(/^\//, ""));
  const shown = `${url.protocol}//${username !== undefined ? `${encodeURIComponent(username)}${password !== undefined ? ":***" : ""}@` : password !== undefined ? ":***@" : ""}${url.host}/${url.pathname.replace(/^\//, "")}`;
  if (host === "") return `--queue ${shown}: the URL names no host; ${QUEUE_URL_FORM}`;
  if (queue === "") return `--queue ${shown}: the URL names no queue (the path: redis://HOST:PORT/QUEUE)`;
  if (!QUEUE_NAME.test(queue))
    return `--queue ${shown}: the queue name must be 1 to 100 letters, digits, '_', '.' or '-'`;
  if (url.search !== "" || url.hash !== "") return `--queue ${shown}: the URL takes no query or fragment`;
  if (password !== undefined) hidePasswordFromPs(text, shown);
  return {
    host,
    port,
    queue,
    tls: url.protocol === "rediss:",
    shown,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
  };
}

/** The environment variable a Redis password may come from. */
export const REDIS_PASSWORD_ENV = "RLM_PLAN_REDIS_PASSWORD";

/** The option naming a file that holds the Redis password. */
export const PASSWORD_FILE_OPTION = "--redis-password-file";

/**
 * The address with its password: the URL's, else the file's (its first line), else
 * RLM_PLAN_REDIS_PASSWORD's; or a message saying what is wrong (never quoting the password).
 */
export function withPassword(
  address: QueueAddress,
  passwordFile: string | undefined,
  env: NodeJS.ProcessEnv,
): QueueAddress | string {
  if (passwordFile !== undefined && address.password !== undefined)
    return `${address.shown} holds a password and ${PASSWORD_FILE_OPTION} gives another: give it once`;
  if (address.password !== undefined) return address;
  let password: string | undefined;
  if (passwordFile !== undefined) {
    try {
      password = readTextFileSync(passwordFile, 64 * 1024).split(/\r?\n/)[0];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return `${PASSWORD_FILE_OPTION} ${passwordFile}: cannot read it${code !== undefined ? ` (${code})` : ""}`;
    }
    if (password === "") return `${PASSWORD_FILE_OPTION} ${passwordFile}: its first line is empty`;
  } else {
    const fromEnv = env[REDIS_PASSWORD_ENV];
    password = fromEnv === "" ? undefined : fromEnv;
  }
  return password === undefined ? address : { ...address, password };
}

/**
 * A password written in the --queue URL shows in `ps` (the process's command line): the
 * command line is rewritten with the URL as shown (`***`). Linux keeps the first moment of the
 * process visible, so RLM_PLAN_REDIS_PASSWORD or --redis-password-file is the way to keep it out
 * of `ps` entirely.
 */
function hidePasswordFromPs(url: string, shown: string): void {
  try {
    process.title = ["rlm-plan", ...process.argv.slice(2).map((arg) => arg.split(url).join(shown))].join(" ");
  } catch {
    // A platform that cannot retitle a process: the password stays out of every output all the same.
  }
}
