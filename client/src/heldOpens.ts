// Documents the extension opens empty and fills at once (Propose Plan's unsaved proposal: VS Code
// opens an untitled document that has a place only empty): the language server is told of such
// a document once its text is there, never of the empty one. Its didOpen is held until the first
// change, then sent with the whole text in place of that change. Before, the server got the empty
// document first and a proposal could show "invalid JSON: value expected [Ln 1, Col 1]" and no
// worst case while the editor held the whole plan.

import type { TextDocument, TextDocumentChangeEvent, Uri } from "vscode";

type Next<T> = (data: T) => Promise<void>;

/** The language client's middleware signatures this needs (vscode-languageclient's `Middleware`). */
export interface HoldingMiddleware {
  didOpen(document: TextDocument, next: Next<TextDocument>): Promise<void>;
  didChange(event: TextDocumentChangeEvent, next: Next<TextDocumentChangeEvent>): Promise<void>;
  didClose(document: TextDocument, next: Next<TextDocument>): Promise<void>;
}

export class HeldOpens implements HoldingMiddleware {
  /** Held URIs: the didOpen to send when the text comes (undefined until VS Code opens it). */
  private readonly held = new Map<string, (() => Promise<void>) | undefined>();
  /** The version a held didOpen was sent with: changes up to it are in its text already. */
  private readonly sentAt = new Map<string, number>();

  /** Holds the didOpen of `uri` while it is empty, until its first change or `release`. */
  hold(uri: Uri): { release(): Promise<void> } {
    const key = uri.toString();
    this.held.set(key, undefined);
    return { release: () => this.send(key) };
  }

  async didOpen(document: TextDocument, next: Next<TextDocument>): Promise<void> {
    const key = document.uri.toString();
    if (!this.held.has(key) || document.getText() !== "") {
      this.held.delete(key);
      return next(document);
    }
    // The document object is live: sent later, it carries its text and version of then.
    const version = () => document.version;
    this.held.set(key, async () => {
      this.sentAt.set(key, version());
      await next(document);
    });
  }

  async didChange(event: TextDocumentChangeEvent, next: Next<TextDocumentChangeEvent>): Promise<void> {
    const key = event.document.uri.toString();
    if (this.held.get(key) !== undefined) return this.send(key);
    const sent = this.sentAt.get(key);
    if (sent !== undefined && event.document.version <= sent) return; // in the didOpen's text
    this.sentAt.delete(key);
    return next(event);
  }

  async didClose(document: TextDocument, next: Next<TextDocument>): Promise<void> {
    const key = document.uri.toString();
    this.sentAt.delete(key);
    // Closed before its text came: the server never heard of it.
    if (this.held.get(key) !== undefined) {
      this.held.delete(key);
      return;
    }
    this.held.delete(key);
    return next(document);
  }

  /** Sends a held didOpen now, whatever the text (the fill failed, or is done). */
  private async send(key: string): Promise<void> {
    const open = this.held.get(key);
    this.held.delete(key);
    await open?.();
  }
}
