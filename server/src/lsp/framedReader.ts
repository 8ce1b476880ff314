// The language server's reader for --stdio: the core's Content-Length framer over stdin. A header
// without a valid length (`Content-Length: -5`) stopped vscode-jsonrpc's reader for good (the
// server stayed up, deaf); here a malformed frame is skipped, said on stderr, and reading goes on.

import type { Readable } from "node:stream";
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from "vscode-languageserver/node";
import { ContentLengthFrames } from "@rlm-plan/core/text";

/** The largest message read: a whole document in didOpen, so the plan limit with room for JSON escapes. */
const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

export class FramedMessageReader extends AbstractMessageReader {
  private readonly frames = new ContentLengthFrames(MAX_MESSAGE_BYTES);

  constructor(private readonly input: Readable) {
    super();
    input.on("error", (error: Error) => this.fireError(error));
    input.on("close", () => this.fireClose());
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer) => {
      for (const frame of this.frames.push(chunk)) {
        if (frame.kind === "message") callback(frame.message as Message);
        else process.stderr.write(`rlm-plan-language-server: ${frame.reason}\n`);
      }
    };
    this.input.on("data", onData);
    return { dispose: () => void this.input.off("data", onData) };
  }
}
