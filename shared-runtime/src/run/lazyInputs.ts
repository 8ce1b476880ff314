// The host's lazy inputs (files opened only when a step reads them), each opened once for the
// whole run even when concurrent branches reach it together.

import type { Step } from "../plan/ast";
import { stepInputs } from "../plan/walk";
import { fail, safeErrorText } from "./errors";
import { quoted } from "../plan/problems";
import type { InputOpener } from "./host";

export class LazyInputs {
  /** Lazy inputs being opened or opened. */
  private readonly opening = new Map<string, Promise<void>>();

  /** `inputs` receives each opened input's value (the run reads its inputs there). */
  constructor(
    private readonly lazy: ReadonlyMap<string, InputOpener> | undefined,
    private readonly inputs: Map<string, unknown>,
  ) {}

  /** The lazy inputs not opened yet (a paused run shows them as unread). */
  unread(): string[] {
    return [...(this.lazy?.keys() ?? [])].filter((name) => !this.inputs.has(name));
  }

  /** Opens, once, the lazy inputs `step` reads itself; `wait` lets the run stop the wait. */
  async openFor(step: Step, wait: (opening: Promise<void>) => Promise<void>): Promise<void> {
    const lazy = this.lazy;
    if (!lazy || lazy.size === 0) return;
    for (const { name } of stepInputs(step)) {
      if (this.inputs.has(name)) continue;
      const opener = lazy.get(name);
      if (!opener) continue;
      let opening = this.opening.get(name);
      if (!opening) {
        opening = this.open(name, opener);
        this.opening.set(name, opening);
      }
      await wait(opening);
    }
  }

  private async open(name: string, opener: InputOpener): Promise<void> {
    try {
      const value = await opener();
      this.inputs.set(name, value);
    } catch (error) {
      fail({
        phase: "execute",
        kind: "input_unavailable",
        input: name,
        message: `input ${quoted(name)} could not be opened: ${safeErrorText(error)}`,
      });
    }
  }
}
