// A context handle, the opaque reference a plan holds to a registered context: a leaf apart from
// the store, so what only recognises handles (the journal's canonical requests) loads no store.

export const CREATE_HANDLE = Symbol("ContextStore creates handles");

/** An opaque reference to one registered context; only a ContextStore creates them. */
export class ContextHandle {
  readonly id: string;
  readonly version: number;

  /** @internal Use ContextStore.registerText or registerItems. */
  constructor(key: symbol, id: string, version: number) {
    if (key !== CREATE_HANDLE) throw new TypeError("context handles are created by ContextStore.register*");
    this.id = id;
    this.version = version;
    Object.freeze(this);
  }

  toJSON(): { $context: { id: string; version: number } } {
    return { $context: { id: this.id, version: this.version } };
  }
}
