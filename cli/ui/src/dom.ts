// Building the page's elements: every string given becomes a text node, never markup, so a step
// name, a value or an error from a run (which may be hostile) is always shown as text.

type Child = Node | string | number | null | undefined | false;

/** An element with attributes (set as attributes, never as HTML) and children (strings as text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | undefined>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) append(element, child);
  return element;
}

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
}

/** A link inside the app (hash routes: #/run/3). Only our own routes are ever put in an href. */
export function link(route: string, ...children: Child[]): HTMLAnchorElement {
  return h("a", { href: `#${route}` }, ...children);
}

/** Replaces what `parent` holds. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  for (const child of children) append(parent, child);
}

/** A table: a caption, a header row, rows of cells. */
export function table(
  caption: string,
  header: readonly string[],
  rows: readonly (readonly Child[])[],
): HTMLTableElement {
  return h(
    "table",
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...header.map((cell) => h("th", { scope: "col" }, cell)))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((cell) => h("td", {}, cell))))),
  );
}

/** "1.2 s", "340 ms". */
export function duration(ms: number | null): string {
  if (ms === null) return "";
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** An ISO time as "2026-12-05 20:01:02". */
export function when(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$/, "");
}

/** The status as a badge: its word is what it says (colour only helps). */
export function status(text: string): HTMLElement {
  return h("span", { class: `status status-${/^[a-z ]+$/.test(text) ? text.replace(/ /g, "-") : "other"}` }, text);
}
