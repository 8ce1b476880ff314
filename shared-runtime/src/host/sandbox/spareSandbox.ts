// A command tool's spare sandbox: the bubblewrap its next call will use, started ahead while the
// current call runs, so that the call only releases it (bench/sandbox.bench.ts: starting
// bubblewrap and, above all, moving it into its cgroups are most of a sandboxed call's cost).
//
// A spare is bubblewrap held on its block fd (host/sandbox/bubblewrapLaunch.ts): its namespaces
// and mounts made, in its cgroups with its limits, the tool's program not yet executed. So the
// program a call runs is the one on disk at the call (a replaced program, and the lock's drift
// check, behave as without a spare), and everything it starts is confined from the start.
//
// - One per tool, for one launch (its key: bubblewrap's whole command line, working folder and
//   environment, and which folders its mounts hold); a call whose launch differs discards it.
// - Made only after a call of the tool started (nothing starts that the run did not ask for), and
//   only where the tool has an owner (a ProcessTracker) that ends it when the host closes.
// - Ended after SPARE_IDLE_MS without a call, when its owner closes, and with the runtime
//   (`--die-with-parent`, and the exit hook of host/processGroup.ts).
// - One that died (killed from outside, or bubblewrap refused its mounts) is not used: the call
//   starts cold.

import type { ProcessTracker, Spare } from "../processGroup";
import type { HeldBubblewrap } from "./bubblewrapLaunch";

/** How long a spare waits for its tool's next call before it is ended. */
const SPARE_IDLE_MS = 5_000;

interface Held extends Spare {
  readonly key: string;
  readonly bubblewrap: HeldBubblewrap;
  readonly timer: NodeJS.Timeout;
}

export class SpareSandbox {
  private spare: Held | undefined;

  constructor(private readonly owner: ProcessTracker) {}

  /** The spare for `key`, taken, if there is one that still runs; any other spare is discarded. */
  take(key: string): HeldBubblewrap | undefined {
    const spare = this.spare;
    if (spare === undefined) return undefined;
    if (spare.key !== key || !spare.bubblewrap.alive()) {
      this.end(spare);
      return undefined;
    }
    this.forget(spare);
    this.owner.dropSpare(spare);
    setHeld(spare.bubblewrap, false);
    return spare.bubblewrap;
  }

  /**
   * Starts the next spare after the caller's turn (off its call's path), unless the tool has one
   * or its owner is closing; `start` gives its key and bubblewrap, held, or undefined (or throws)
   * where it cannot be made: then the next call starts cold.
   */
  prepare(signal: AbortSignal | undefined, start: () => { key: string; bubblewrap: HeldBubblewrap } | undefined): void {
    setImmediate(() => {
      // A call cancelled meanwhile ends its run: nothing more is started for it.
      if (this.spare !== undefined || signal?.aborted === true) return;
      let started: { key: string; bubblewrap: HeldBubblewrap } | undefined;
      try {
        started = start();
      } catch {
        return;
      }
      if (started === undefined) return;
      const { key, bubblewrap } = started;
      // A spawn that fails (EAGAIN, EMFILE, a folder gone) says so by an 'error' event, which
      // unheard would end the runtime: the next call then starts cold and meets the error itself.
      bubblewrap.child.on("error", () => undefined);
      if (bubblewrap.group === undefined) return;
      // Waiting: neither it nor its pipes keep the runtime alive.
      setHeld(bubblewrap, true);
      let discarded: Promise<void> | undefined;
      const spare: Held = {
        key,
        bubblewrap,
        timer: setTimeout(() => this.end(spare), SPARE_IDLE_MS).unref(),
        // Once, whoever asks first (its idle timer, a call, its owner closing): waited for, the
        // runtime stays until it is gone and its cgroups removed.
        discard: () => (discarded ??= (setHeld(bubblewrap, false), bubblewrap.discard())),
      };
      if (!this.owner.keepSpare(spare)) {
        void spare.discard();
        return;
      }
      this.spare = spare;
      bubblewrap.child.once("exit", () => {
        if (this.spare === spare) this.end(spare); // its cgroups
      });
    });
  }

  private forget(spare: Held): void {
    clearTimeout(spare.timer);
    if (this.spare === spare) this.spare = undefined;
  }

  /**
   * Discards `spare`; its owner keeps it until it is gone, so that a `closeAll` meanwhile waits
   * for its cgroups too.
   */
  private end(spare: Held): void {
    this.forget(spare);
    void spare.discard().finally(() => this.owner.dropSpare(spare));
  }
}

/** unref()s a waiting bubblewrap and its pipes, or ref()s them again for the call that takes it. */
function setHeld(bubblewrap: HeldBubblewrap, waiting: boolean): void {
  const handles = [bubblewrap.child, ...bubblewrap.child.stdio] as ({ ref?(): void; unref?(): void } | null)[];
  for (const handle of handles) {
    if (waiting) handle?.unref?.();
    else handle?.ref?.();
  }
}
