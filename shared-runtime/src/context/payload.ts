// What a context holds and what an operation on it produces, shared by the operations.

import type { JsonValue } from "../json";
import type { TextMeasures, TextReader, TextSource } from "./sources/textSource";

export type { ContextKind } from "../plan/shapes/contextResults";

export interface TermsPayload {
  readonly kind: "terms";
  readonly items: readonly JsonValue[];
  /** Sum of the items' printed sizes, computed once at registration. */
  readonly bytes: number;
}

/** A registered context. */
export type ContextPayload = { readonly kind: "text"; readonly text: TextSource } | TermsPayload;

/** A context during one operation: a text is read through the operation's reader. */
export type OpenPayload = { readonly kind: "text"; readonly text: TextReader } | TermsPayload;

/** Either of the above, for what only needs a text's measures. */
export type MeasuredPayload = { readonly kind: "text"; readonly text: TextMeasures } | TermsPayload;

/** An operation's result before it leaves the store: a JSON value and whether limits cut it. */
export interface Work {
  readonly value: JsonValue;
  readonly truncated: boolean;
  /** The result's size in bytes when it is over the output bytes the run had left (then not kept). */
  readonly oversize?: number;
}
