// The page's reads of the server's JSON API (uiServer.ts); same origin, the token in its cookie.

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const body = (await response.json()) as T | { error: string };
  if (!response.ok) throw new Error((body as { error?: string }).error ?? `${response.status}`);
  return body as T;
}

/** Sends `body` as JSON (the server takes a vote only so, and only from this page's origin); the answer, error or not. */
export async function postJson<T>(path: string, body: unknown): Promise<T | { error: string }> {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({ error: `${response.status}` }))) as T | { error: string };
  return response.ok ? answer : { error: (answer as { error?: string }).error ?? `${response.status}` };
}
