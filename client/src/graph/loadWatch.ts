// Watches a webview's page until it says it is ready. A webview can stay blank when the
// workbench is busy (its frame never loads), and showing the graph again cannot help, since that
// only reveals the same view: a page that is not ready in time while its view is visible is set
// again, a few times, and then the user is told. VS Code mounts a webview only when it is shown,
// so a hidden view's wait starts over when it shows. A page that said it is loading has its frame
// (what a blank view lacks): it is only slow (a busy machine), and setting it again would start
// its load over, so it is waited for.

export interface LoadWatchOptions {
  readonly timeoutMs: number;
  /** How many times the page is set in all, the first load included. */
  readonly attempts: number;
  visible(): boolean;
  /** Sets the view's page. */
  load(): void;
  /** Tells the user (the extension's output channel). */
  say(message: string): void;
}

export class LoadWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private loads = 0;
  private ready = false;
  private stopped = false;
  /** The current page said it is loading. */
  private alive = false;

  constructor(private readonly options: LoadWatchOptions) {}

  get isReady(): boolean {
    return this.ready;
  }

  /** Sets the page and starts waiting for it. */
  load(): void {
    this.loads++;
    this.ready = false;
    this.alive = false;
    this.options.load();
    this.wait();
  }

  /** The view was shown: a page not yet ready gets its full time again. */
  shown(): void {
    if (!this.ready && !this.alive && !this.stopped) this.wait();
  }

  /** The page said it is there, its script still loading: it is not set again. */
  started(): void {
    this.alive = true;
    clearTimeout(this.timer);
  }

  /** The page said it is ready. */
  loaded(): void {
    this.ready = true;
    clearTimeout(this.timer);
  }

  dispose(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private wait(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stalled(), this.options.timeoutMs);
  }

  private stalled(): void {
    if (this.ready || this.alive || this.stopped || !this.options.visible()) return;
    if (this.loads >= this.options.attempts) {
      this.options.say(`the view did not load after ${this.loads} tries; close it and show the graph again`);
      return;
    }
    this.options.say(`the view did not load within ${this.options.timeoutMs / 1000} s; loading it again`);
    this.load();
  }
}
