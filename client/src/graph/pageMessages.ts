// What a graph view's page is sent, and how: the messages that are there when its HTML is set
// (the first graph, its run states, the selection) are written into that HTML, so the page
// draws as its script runs, with no trip through VS Code after it; later ones are posted. No
// `vscode` import: test/unit/client.graph-page-messages.test.ts drives it.

import type { ToWebview } from "./messages";

export interface PageMessagesOptions {
  /** Posts to the current page (VS Code holds a message posted before the page is there). */
  post(message: ToWebview): void;
  /** Whether the current page said "ready" (the panel's load watch knows: one state, not two). */
  isReady(): boolean;
}

export class PageMessages {
  /** Every message since the first page was opened, until a page said "ready". */
  private pending: ToWebview[] = [];
  /** How many of `pending` the current page's HTML carries. */
  private written = 0;
  /** Whether the current page's HTML is set (a new view's is not, until the first graph or a timeout). */
  private pageSet = false;

  constructor(private readonly options: PageMessagesOptions) {}

  /** A new page is being made (the first, or one in the place of a page that never loaded). */
  opening(): void {
    this.pageSet = false;
    this.written = 0;
  }

  /** The messages the page's HTML carries, as it is set: every one not yet seen by a ready page. */
  writeIntoPage(): readonly ToWebview[] {
    this.pageSet = true;
    this.written = this.pending.length;
    return this.pending.slice();
  }

  /** Whether the current page's HTML carries a graph (the first drawing's log says so). */
  get pageHasGraph(): boolean {
    return this.pending.slice(0, this.written).some((message) => message.type === "graph");
  }

  send(message: ToWebview): void {
    if (this.options.isReady()) {
      this.options.post(message);
      return;
    }
    this.pending.push(message);
    // Before the page's HTML is set, the message goes into it. After, a graph is posted at once
    // too: VS Code holds it until the page is there, which saves the page's "ready" and the
    // graph's trip after it. It is sent again on "ready" (a page that never loads is replaced,
    // and the new one gets what is pending); the page draws each graph number once.
    if (this.pageSet && message.type === "graph") this.options.post(message);
  }

  /** The page said "ready": it gets what its HTML did not carry. */
  ready(): void {
    const rest = this.pending.splice(0).slice(this.written);
    this.written = 0;
    for (const message of rest) this.options.post(message);
  }
}

/** Resolves when `promise` settles or `ms` have passed, whichever is first. */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  clearTimeout(timer);
}
