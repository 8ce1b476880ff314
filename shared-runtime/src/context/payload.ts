// What a context holds and what an operation on it produces, shared by the operations.

import type { JsonValue } from "../json";
import type { TextSource } from "./textSource";

export type ContextKind = "text" | "terms";

export type ContextPayload =
  | { readonly kind: "text"; readonly text: TextSource }
  | {
      readonly kind: "terms";
      readonly items: readonly JsonValue[];
      /** Sum of the items' printed sizes, computed once at registration. */
      readonly bytes: number;
    };

/** An operation's result before it leaves the store: a JSON value and whether limits cut it. */
export interface Work {
  readonly value: JsonValue;
  readonly truncated: boolean;
}
