// The page's reads of the server's JSON API (uiServer.ts); same origin, the token in its cookie.

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const body = (await response.json()) as T | { error: string };
  if (!response.ok) throw new Error((body as { error?: string }).error ?? `${response.status}`);
  return body as T;
}
