// The "Compare Runs" view's page: its HTML, content security policy and stylesheet, with the
// comparison written into it as JSON (a data block no script runs from). No `vscode` import.

import { pageHead, scriptSafeJson } from "../graph/graphPage";
import { COMPARE_DATA_ID, type CompareMessage } from "./compareMessages";

export interface ComparePageOptions {
  readonly nonce: string;
  /** The text of dist/compareView.js, written into the page. */
  readonly script: string;
  /** The webview URI of dist/graphLayout.js (elkjs), loaded when a layout needs it. */
  readonly layout: string;
  readonly compare: CompareMessage;
}

export function comparePageHtml({ nonce, script, layout, compare }: ComparePageOptions): string {
  return `${pageHead(nonce, PAGE_STYLE)}
<body>
<div id="summary" role="status"></div>
<div id="sides"><section id="side-a"></section><section id="side-b"></section></div>
<table id="steps"></table>
<script type="application/json" id="${COMPARE_DATA_ID}">${scriptSafeJson(compare)}</script>
<script nonce="${nonce}" data-layout="${layout}">${script.replace(/<\/(script)/gi, "<\\/$1")}</script>
</body>
</html>`;
}

// The diff style: changed steps amber, the first divergence red and thick, a step in one plan only
// green (added) or struck (removed); steps alike stay as the graph draws them.
const PAGE_STYLE = `
body { margin: 0; padding: 8px; font: 13px var(--vscode-font-family); color: var(--vscode-editor-foreground); background: var(--vscode-editor-background); }
#summary { margin-bottom: 8px; }
#sides { display: flex; gap: 8px; }
#sides section { flex: 1 1 50%; min-width: 0; overflow: auto; max-height: 55vh; border: 1px solid var(--vscode-panel-border, #8884); }
#sides h2 { font-size: 13px; margin: 4px 8px; }
g.step.diff-changed > rect { stroke: var(--vscode-editorWarning-foreground, #cca700); stroke-width: 2.5; }
g.step.diff-first > rect { stroke: var(--vscode-editorError-foreground, #f14c4c); stroke-width: 4; }
g.step.diff-added > rect { stroke: var(--vscode-gitDecoration-addedResourceForeground, #81b88b); stroke-width: 2.5; stroke-dasharray: 6 3; }
g.step.diff-removed > rect { stroke: var(--vscode-gitDecoration-deletedResourceForeground, #c74e39); stroke-width: 2.5; stroke-dasharray: 2 2; }
table { border-collapse: collapse; margin-top: 8px; width: 100%; }
th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid var(--vscode-panel-border, #8884); vertical-align: top; }
tr.first td { font-weight: bold; }
tr.changed td.change, tr.first td.change { color: var(--vscode-editorWarning-foreground, #cca700); }
tr.same { opacity: 0.7; }
code { font-family: var(--vscode-editor-font-family); }
`;
