// What a sub-plan refactoring answers: one replacement of the plan's text, or why it is refused.

export interface Replacement {
  readonly title: string;
  /** The text replaced: `[offset, offset + length)`. */
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
  /** The same text as a snippet whose placeholder is the new binding's name, when there is one. */
  readonly snippet?: string;
}

export interface Refusal {
  readonly title: string;
  /** A sentence saying why, for the editor to show. */
  readonly refused: string;
}

export type RefactorOutcome = Replacement | Refusal;

export function refusal(title: string, verb: string, why: string): Refusal {
  return { title, refused: `Cannot ${verb}: ${why}.` };
}

/** `text` with `[offset, offset + length)` replaced. */
export function replaced(text: string, edit: Pick<Replacement, "offset" | "length" | "newText">): string {
  return text.slice(0, edit.offset) + edit.newText + text.slice(edit.offset + edit.length);
}
