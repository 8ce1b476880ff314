// Replays a run on the plan graph from its recorded events ("Open Run as Graph"): nothing is
// shown until the view has drawn the graph once (a replay that started with the server's answer
// had most steps done by the first drawing), then the run starts with no step marked and its
// events are applied one at a time in their order, steps starting, finishing, failing and
// retrying as they did, then the run's own end. No `vscode` import: tested in process.

import type { RunEvent } from "@rlm-plan/core/run/events";
import type { ToWebview } from "./messages";
import type { RunRecord } from "../runLog";
import { stepStates } from "./runSteps";

export interface ReplayOptions {
  readonly record: RunRecord;
  /** The graph's step ids (read when each event is shown: an edit may redraw the graph). */
  stepIds(): readonly string[];
  /** Resolves once the view has drawn the graph for the first time. */
  readonly drawn: Promise<unknown>;
  send(message: ToWebview): void;
  /** The last event was shown: the panel shows the record's own states from here on. */
  ended(): void;
}

/** The time between two events: the whole replay in about 4 s, each event shown for 20 to 400 ms. */
export function replayInterval(events: number): number {
  return Math.max(20, Math.min(400, 4000 / Math.max(1, events)));
}

export class RunReplay {
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(private readonly options: ReplayOptions) {
    void options.drawn.then(() => this.start());
  }

  /** Stops the replay where it is (a newer replay, the panel closed); `ended` is not called. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private start(): void {
    if (this.stopped) return;
    const { record } = this.options;
    const events = record.events ?? [];
    const summary = `Replaying run ${record.number}`;
    const shown = { status: "running" as const, events: [] as RunEvent[] };
    // The run from its start: no step marked (the view may show another run's states).
    this.options.send({ type: "run", states: {}, summary });
    let next = 0;
    this.timer = setInterval(() => {
      if (next < events.length) {
        shown.events.push(events[next++] as RunEvent);
        this.options.send({ type: "run", states: stepStates(shown, this.options.stepIds()), summary });
        return;
      }
      this.stop();
      this.options.ended();
    }, replayInterval(events.length));
  }
}
