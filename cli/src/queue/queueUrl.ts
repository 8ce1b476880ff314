// A queue's address, `redis://[USER[:PASSWORD]@]HOST:PORT/QUEUE` (`rediss://` for TLS): the
// Redis connection and the BullMQ queue name. Its password is a secret like a provider key: it
// is shown as `***` and added to the command's mask, so no output, error or journal holds it.

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
