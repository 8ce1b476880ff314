// A context operation over a big value held in memory (a partition of a 1 MB inline text into
// single characters, a map over a long list) is a loop of plain code and resolved awaits: the run's
// time-limit timer and a cancel cannot fire until it returns, and what it builds meanwhile grows
// without end. Each loop ticks a pace: every few thousand units it looks at the run's signal
// (ending the operation once the run stopped) and lets the event loop turn once 10 ms have passed,
// so the interpreter's one time rule ends the run on time and the work stops with it.

import { operationStopped } from "./contextErrors";
import { ResultList } from "./resultList";

/** Units of work between looks at the clock and the signal: a look costs about as much as 100 units. */
const EVERY = 2048;
/** The longest the event loop waits for an operation's turn: the run's timer fires this late at most. */
const SLICE_MS = 10;

export class WorkPace {
  private units = 0;
  private last = performance.now();

  constructor(
    readonly signal?: AbortSignal,
    /** The output bytes the run has left: a result list over them is measured, not kept (resultList.ts). */
    readonly outputCap?: number,
  ) {}

  /** A result list under this operation's output cap. */
  results(): ResultList {
    return new ResultList(this.outputCap);
  }

  /**
   * Counts `units` of work; true when the event loop is due a turn (then `await pace.turn()`).
   * Throws the operation's stop once the run's signal has aborted.
   */
  tick(units = 1): boolean {
    this.units += units;
    if (this.units < EVERY) return false;
    this.units = 0;
    if (this.signal?.aborted) throw operationStopped();
    return performance.now() - this.last >= SLICE_MS;
  }

  /** Lets timers and I/O run, then throws the operation's stop if the run ended meanwhile. */
  async turn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
    if (this.signal?.aborted) throw operationStopped();
  }
}
