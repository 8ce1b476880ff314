// The plan graph view's page: its HTML, content security policy and stylesheet. No `vscode`
// import: the webview test loads this very page in Chromium (test/integration/graph.webview.test.ts).

// The drawing's stylesheet: the runtime's, the same the exported SVG carries.
import { readFileSync } from "node:fs";
import { GRAPH_STYLE } from "@rlm-plan/core/editor";
import { PAGE_MESSAGES_ID, type ToWebview } from "./messages";

export interface GraphPageOptions {
  /** A fresh random value per page: the only script and stylesheet that run carry it. */
  readonly nonce: string;
  /**
   * The text of dist/graphView.js, written into the page: one request less through the webview's
   * service worker, which costs seconds on a busy machine (bench/README.md).
   */
  readonly script: string;
  /** The webview URI of dist/graphLayout.js (elkjs), which the script loads when a layout needs it. */
  readonly layout: string;
  /**
   * Messages the page handles as its script starts, as if posted (the first graph, its run
   * states): written into the page as JSON, in a data block no script runs from.
   */
  readonly messages?: readonly ToWebview[];
}

/** No remote content: scripts only with the nonce, styles only the nonce'd sheet, images only from blobs (the PNG copy draws the SVG through one). */
export function graphPageHtml({ nonce, script, layout, messages = [] }: GraphPageOptions): string {
  return `${pageHead(nonce, PAGE_STYLE, "img-src blob: data:")}
<body>
<div id="status" role="status"></div>
<div id="canvas"><div id="stage"></div></div>
<div id="tooltip" role="tooltip" hidden></div>
<script nonce="${nonce}">${LOADING_SCRIPT}</script>
<script type="application/json" id="${PAGE_MESSAGES_ID}">${scriptSafeJson(messages)}</script>
<script nonce="${nonce}" data-layout="${layout}">${script.replace(/<\/(script)/gi, "<\\/$1")}</script>
</body>
</html>`;
}

/**
 * A page of ours up to its body (the graph's, Compare Runs'): no remote content, scripts and
 * styles only with the nonce (`more`: what else the page may load), its stylesheet and the graph's.
 */
export function pageHead(nonce: string, style: string, ...more: string[]): string {
  const csp = ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`, ...more].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${style}${GRAPH_STYLE}</style>
</head>`;
}

let viewScriptText: string | undefined;

/** dist/graphView.js's text (at `path`), read once: the page carries it inline. */
export function viewScript(path: string): string {
  viewScriptText ??= readFileSync(path, "utf8");
  return viewScriptText;
}

/**
 * JSON that cannot end or change the script element it is in: a step named `</script>` or
 * `<!--` would otherwise close the data block or switch the parser's script state. In a
 * script's text only `<` starts any of that, so every `<` is written as `\u003c`, which JSON
 * reads back the same (a large graph has thousands of `>` in its edges' ids: left as they are).
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * Runs before the view's script has loaded: says the page is there (the panel's load watch then
 * knows the frame is not stuck, only slow) and keeps VS Code's API, which a page gets once, for
 * the script.
 */
const LOADING_SCRIPT =
  "window.rlmPlanVsCode = acquireVsCodeApi();" +
  'window.rlmPlanVsCode.postMessage({ type: "loading", at: performance.timeOrigin + performance.now() });';

const PAGE_STYLE = `
html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; background: var(--vscode-editor-background); color: var(--vscode-editor-foreground); }
#status { position: fixed; top: 0; left: 0; right: 0; padding: 4px 8px; font: 12px var(--vscode-font-family); color: var(--vscode-descriptionForeground); background: var(--vscode-editor-background); border-bottom: 1px solid var(--vscode-panel-border, transparent); z-index: 2; }
#canvas { position: absolute; top: 24px; left: 0; right: 0; bottom: 0; overflow: hidden; cursor: grab; }
#stage { transform-origin: 0 0; position: absolute; }
#stage g.step { cursor: pointer; }
#stage g.step:focus { outline: none; }
#stage g.step:focus > rect { stroke: var(--vscode-focusBorder); stroke-width: 2; }
.rlm-graph .step text.run { font-size: 10px; fill: var(--vscode-descriptionForeground); }
#tooltip { position: fixed; max-width: 420px; white-space: pre-wrap; padding: 6px 8px; font: 12px var(--vscode-font-family); color: var(--vscode-editorHoverWidget-foreground); background: var(--vscode-editorHoverWidget-background); border: 1px solid var(--vscode-editorHoverWidget-border); z-index: 3; pointer-events: none; }
`;
