// The plan graph's stylesheet, in a module of its own (no imports): the SVG drawing embeds it,
// and the editor's webview page links it without bundling the graph code.

/** Stylesheet of the drawing; the webview reuses it so an exported SVG looks as it did. */
export const GRAPH_STYLE = `
.rlm-graph { font: 12px var(--vscode-font-family, system-ui, sans-serif); }
.rlm-graph .plan > rect { fill: var(--vscode-editorWidget-background, #f6f8fa); stroke: var(--vscode-editorWidget-border, #d0d7de); stroke-dasharray: 4 3; }
.rlm-graph .plan.root > rect { fill: none; stroke: none; }
.rlm-graph .caption { fill: var(--vscode-descriptionForeground, #57606a); }
.rlm-graph .step > rect { fill: var(--vscode-editor-background, #ffffff); stroke: var(--vscode-editorWidget-border, #8c959f); stroke-width: 1; rx: 6; }
.rlm-graph .step text { fill: var(--vscode-editor-foreground, #1f2328); }
.rlm-graph .step text.title { font-weight: 600; }
.rlm-graph .step text.detail, .rlm-graph .step text.cost { fill: var(--vscode-descriptionForeground, #57606a); }
.rlm-graph .step.problem > rect { stroke: var(--vscode-editorError-foreground, #cf222e); stroke-width: 2; }
.rlm-graph .step.over-budget > rect { stroke: var(--vscode-editorWarning-foreground, #9a6700); stroke-width: 2; stroke-dasharray: 6 2; }
.rlm-graph .step text.mark { fill: var(--vscode-editorWarning-foreground, #9a6700); }
.rlm-graph .step.problem text.mark { fill: var(--vscode-editorError-foreground, #cf222e); }
.rlm-graph .step.needs-approval > rect { stroke: var(--vscode-charts-purple, #8250df); stroke-width: 2; }
.rlm-graph .step text.approval { fill: var(--vscode-charts-purple, #8250df); }
.rlm-graph .approval-badge circle { fill: var(--vscode-charts-purple, #8250df); }
.rlm-graph .approval-badge path { fill: none; stroke: var(--vscode-editor-background, #ffffff); stroke-width: 1.6; }
.rlm-graph .step.selected > rect { stroke: var(--vscode-focusBorder, #0969da); stroke-width: 3; }
.rlm-graph .step.running > rect { fill: var(--vscode-editorInfo-background, #ddf4ff); stroke: var(--vscode-editorInfo-foreground, #0969da); stroke-width: 2; }
.rlm-graph .step.ok > rect { fill: var(--vscode-diffEditor-insertedTextBackground, #dafbe1); stroke: var(--vscode-testing-iconPassed, #1a7f37); stroke-width: 2; }
.rlm-graph .step.failed > rect { fill: var(--vscode-diffEditor-removedTextBackground, #ffebe9); stroke: var(--vscode-testing-iconFailed, #cf222e); stroke-width: 2; }
.rlm-graph .step.skipped { opacity: 0.55; }
.rlm-graph .step.cancelled > rect { stroke: var(--vscode-descriptionForeground, #57606a); stroke-width: 2; stroke-dasharray: 3 3; }
.rlm-graph .step text.attempts { font-size: 10px; font-weight: 600; fill: var(--vscode-testing-iconFailed, #cf222e); }
.rlm-graph .edge { fill: none; stroke: var(--vscode-editorWidget-border, #8c959f); stroke-width: 1.2; }
.rlm-graph .edge.data { stroke: var(--vscode-charts-blue, #0969da); stroke-dasharray: 4 3; }
.rlm-graph .arrow { fill: var(--vscode-editorWidget-border, #8c959f); }
.rlm-graph .arrow.data { fill: var(--vscode-charts-blue, #0969da); }
`;
