// The one HTML page of the run browser: served by `rlm-plan ui` with its script and stylesheets as
// files (the content security policy admits nothing inline), and written by `runs export --format
// html` (and `rlm-plan test --format html`) with them inlined, each admitted by its hash, and the
// run's view (the test run's) in a JSON block. The same page script (cli/ui/src) draws them all.

import { createHash } from "node:crypto";
import { EXPORT_DATA_ID } from "./uiApi";

/** The server's policy: the page's own files only; SVG data images; fetch and events to itself. */
export const SERVED_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const BODY = `<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Pages"><a href="#/runs" class="brand">rlm-plan runs</a> <a href="#/tests" class="page">Tests</a> <a href="#/approvals" class="page">Approvals</a> <a href="#/fleet" class="page">Fleet</a></nav><p id="live" class="live" role="status" aria-live="polite"></p></header>
<main id="main" tabindex="-1"><p class="muted">Loading…</p></main>`;

/** The served page: its script and stylesheets are the server's files. */
export function servedPage(): string {
  return page(
    `<link rel="stylesheet" href="/ui.css"><link rel="stylesheet" href="/graph.css"><script src="/ui.js" defer></script>`,
  );
}

/**
 * A page that stands alone (a CI artifact opened from file://): stylesheet and script inline and
 * admitted by their SHA-256 in a CSP meta tag (no network: default-src 'none'), the run as JSON in
 * a data block. `<` in the JSON is written \u003c, so no text in it can close the block.
 */
export function standalonePage(
  css: string,
  script: string,
  data: unknown,
  title: string,
  dataId: string = EXPORT_DATA_ID,
): string {
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  const csp = `default-src 'none'; script-src '${hash(script)}'; style-src '${hash(css)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  // The script after the body: an inline script cannot wait for the page as a deferred file does.
  return page(
    `<meta http-equiv="Content-Security-Policy" content="${csp}"><style>${css}</style>`,
    title,
    `<script type="application/json" id="${dataId}">${json}</script>\n<script>${script}</script>`,
  );
}

function page(head: string, title = "rlm-plan runs", tail = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${BODY}
${tail}
</body>
</html>
`;
}

function hash(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

/** Text for HTML element content or a quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
