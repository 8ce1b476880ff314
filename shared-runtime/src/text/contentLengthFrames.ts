// Messages framed by `Content-Length` headers (the Debug Adapter Protocol, and LSP over stdio) read
// from a byte stream that may be hostile: a header without a valid length (missing, negative,
// not a number), a body that is not JSON or not an object, garbage between frames, a length over
// the limit. Each malformed frame is reported and skipped and the reader finds the next header,
// so one bad frame never ends the conversation; nothing held in memory exceeds the limit.

/** One frame read: a JSON object, or why the bytes read were skipped. */
export type Frame =
  { readonly kind: "message"; readonly message: object } | { readonly kind: "malformed"; readonly reason: string };

/** A header longer than this is garbage. */
const MAX_HEADER = 8 * 1024;
const TERMINATOR = Buffer.from("\r\n\r\n");
const HEADER_START = Buffer.from("Content-");
const LENGTH_HEADER = Buffer.from("Content-Length");
const LENGTH = /^Content-Length:[ \t]*(\d{1,15})[ \t]*$/i;

/** Reads frames from chunks as they come; `push` returns the frames the chunk completed. */
export class ContentLengthFrames {
  private buffer: Buffer = Buffer.alloc(0);
  /** Chunks of a body still arriving, and their length (one concatenation when it is whole). */
  private chunks: Buffer[] = [];
  private chunked = 0;
  private bodyLength = -1;
  /** Bytes of an over-long body still to drop as they arrive. */
  private skipping = 0;

  constructor(private readonly maxBody: number) {}

  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    if (this.skipping > 0) {
      const dropped = Math.min(this.skipping, chunk.length);
      this.skipping -= dropped;
      chunk = chunk.subarray(dropped);
    }
    if (this.bodyLength >= 0) {
      this.chunks.push(chunk);
      this.chunked += chunk.length;
      if (this.chunked < this.bodyLength) return frames;
      chunk = Buffer.concat(this.chunks, this.chunked);
      this.chunks = [];
      this.chunked = 0;
    } else if (chunk.length > 0) chunk = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    else chunk = this.buffer;
    this.buffer = chunk;
    for (;;) {
      if (this.bodyLength >= 0) {
        if (this.buffer.length < this.bodyLength) {
          // Wait for the rest without copying what came so far again.
          this.chunks = [this.buffer];
          this.chunked = this.buffer.length;
          this.buffer = Buffer.alloc(0);
          return frames;
        }
        frames.push(body(this.buffer.subarray(0, this.bodyLength)));
        this.buffer = this.buffer.subarray(this.bodyLength);
        this.bodyLength = -1;
        continue;
      }
      if (this.buffer.length === 0) return frames;
      if (!this.startsWithHeader()) {
        frames.push({ kind: "malformed", reason: "bytes that are not a header were skipped" });
        this.resync();
        continue;
      }
      const end = this.buffer.indexOf(TERMINATOR);
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER) {
          frames.push({ kind: "malformed", reason: `a header longer than ${MAX_HEADER} bytes was skipped` });
          this.resync(1);
          continue;
        }
        return frames;
      }
      const length = contentLength(this.buffer.toString("latin1", 0, end));
      this.buffer = this.buffer.subarray(end + TERMINATOR.length);
      if (length === undefined) {
        frames.push({ kind: "malformed", reason: "a header without a valid Content-Length was skipped" });
        this.resync();
      } else if (length > this.maxBody) {
        frames.push({
          kind: "malformed",
          reason: `a message of ${length} bytes, over the limit of ${this.maxBody}, was skipped`,
        });
        const dropped = Math.min(length, this.buffer.length);
        this.buffer = this.buffer.subarray(dropped);
        this.skipping = length - dropped;
        if (this.skipping > 0) return frames;
      } else this.bodyLength = length;
    }
  }

  /** Whether the buffer starts as a header does (or could, when only its start has come). */
  private startsWithHeader(): boolean {
    const n = Math.min(this.buffer.length, HEADER_START.length);
    return (
      this.buffer.subarray(0, n).toString("latin1").toLowerCase() ===
      HEADER_START.subarray(0, n).toString("latin1").toLowerCase()
    );
  }

  /** Drops bytes up to the next `Content-Length` header (keeping a tail that may begin one). */
  private resync(from = 0): void {
    const next = this.buffer.indexOf(LENGTH_HEADER, from);
    if (next >= 0) {
      this.buffer = this.buffer.subarray(next);
      return;
    }
    // Only a tail that is the start of `Content-Length` is kept, so every resync makes progress.
    for (let k = Math.min(LENGTH_HEADER.length - 1, this.buffer.length - from); k > 0; k--) {
      if (this.buffer.subarray(this.buffer.length - k).equals(LENGTH_HEADER.subarray(0, k))) {
        this.buffer = this.buffer.subarray(this.buffer.length - k);
        return;
      }
    }
    this.buffer = Buffer.alloc(0);
  }
}

function contentLength(header: string): number | undefined {
  let length: number | undefined;
  for (const line of header.split("\r\n")) {
    const match = LENGTH.exec(line);
    if (match) length = Number(match[1]);
    else if (/^content-length\s*:/i.test(line)) return undefined;
  }
  return length;
}

function body(bytes: Buffer): Frame {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    return { kind: "malformed", reason: `a body that is not JSON was skipped (${(error as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { kind: "malformed", reason: "a body that is not a JSON object was skipped" };
  return { kind: "message", message: value };
}
