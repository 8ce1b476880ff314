// The keys that edit the plan from the graph, on the focused (or selected) step: the page only
// names the edit; the extension asks what it needs (the palette, a new name) and the server makes
// the text edit. Documented in docs/editor.md's graph section.

import type { FromWebview, GraphEditAction } from "../../src/graph/messages";

/** Posts the edit a key press on the step `id` (the focused one, else the selected one) asks for. */
export function postGraphEdit(
  event: KeyboardEvent,
  id: string | null | undefined,
  post: (message: FromWebview) => void,
): void {
  const action = graphEditForKey(event);
  if (!action || !id) return;
  event.preventDefault();
  post({ type: "edit", action, id });
}

/** The edit a key press asks for, or undefined when the key is not one of them. */
function graphEditForKey(
  event: Pick<KeyboardEvent, "key" | "altKey" | "ctrlKey" | "metaKey" | "shiftKey">,
): GraphEditAction | undefined {
  if (event.ctrlKey || event.metaKey) return undefined;
  if (event.altKey) {
    if (event.key === "ArrowUp") return "moveUp";
    if (event.key === "ArrowDown") return "moveDown";
    return undefined;
  }
  switch (event.key) {
    case "Delete":
    case "Backspace":
      return "delete";
    case "Insert":
    case "i":
      return "insert";
    case "r":
      return "wrapRetry";
    case "p":
      return "wrapParallel";
    case "F2":
      return "rename";
    default:
      return undefined;
  }
}
