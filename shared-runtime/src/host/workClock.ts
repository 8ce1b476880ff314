// Long synchronous work in built-in tools (sorting, deduplicating, joining big lists) blocks the
// event loop, so the run's time-limit timer cannot fire until it returns. Built-ins therefore
// look at the run's deadline every few thousand units of work and end the run themselves, with
// the same error the timer gives, so `time_limit` holds whatever a plan asks them to do.

// `performance` is Node's global (loaded on first use): importing node:perf_hooks loaded eleven
// modules at every start of the CLI and the server, through the analysis's data limits.
import { RunFailure } from "../run/errors";

const EVERY = 4096;

/** Counts work; past the deadline (performance.now() milliseconds) it ends the run. */
export class WorkClock {
  private units = 0;

  constructor(
    private readonly deadline: number | undefined,
    private readonly timeLimitSeconds: number | undefined,
  ) {}

  tick(units = 1): void {
    if (this.deadline === undefined) return;
    this.units += units;
    if (this.units < EVERY) return;
    this.units = 0;
    if (performance.now() > this.deadline) {
      throw new RunFailure({
        phase: "execute",
        kind: "time_limit_exceeded",
        message: `the run exceeded its time limit of ${this.timeLimitSeconds ?? "its"} s`,
      });
    }
  }
}
