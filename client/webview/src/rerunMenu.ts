// The graph's context menu for "Rerun From Here" (package.json's `webview/context`): VS Code reads
// `data-vscode-context` from the element right-clicked and its ancestors, so as a right-click
// starts (capture phase, before VS Code's own listener) the page says which step is under the
// pointer and whether the run it shows is recorded. The extension says the latter ("rerunMenu",
// handed here by graphView.ts, whether posted or written into the page).

let recorded = false;

/** Whether the run the graph shows is recorded, so its steps offer "Rerun From Here". */
export function setRecordedRun(shown: boolean): void {
  recorded = shown;
}

window.addEventListener(
  "contextmenu",
  (event) => {
    const step = event.target instanceof Element ? event.target.closest<SVGGElement>("g.step") : null;
    const id = step?.dataset.id;
    document.body.dataset.vscodeContext = JSON.stringify({
      // Cut, copy and paste mean nothing on a drawing.
      preventDefaultContextMenuItems: true,
      ...(id !== undefined ? { webviewSection: "rlmPlanStep", rlmPlanStepId: id } : {}),
      ...(recorded ? { rlmPlanRecordedRun: true } : {}),
    });
  },
  true,
);
