// Splits an MCP server's stdout into lines (one JSON-RPC message each) with a size limit per
// line. The SDK's own buffer throws out of a stream callback past 10 MB (an uncaught exception
// that ended the whole process) and copies its whole buffer on every chunk; this one keeps the
// chunks of the line in progress, looks for a newline only in what is new, and says when a line
// passes the limit as soon as it gets there, so the transport can end that one connection.

export interface Framed {
  /** The lines completed, without their line ends (LF or CRLF). */
  readonly lines: Buffer[];
  /** A line passed the limit: nothing more is framed (the lines before it are in `lines`). */
  readonly tooLong: boolean;
}

export class LineFramer {
  private parts: Buffer[] = [];
  private size = 0;
  private overflowed = false;

  /** `limit`: the most bytes one line may hold, its line end not counted. */
  constructor(readonly limit: number) {}

  push(chunk: Buffer): Framed {
    const lines: Buffer[] = [];
    if (this.overflowed) return { lines, tooLong: true };
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      let part = chunk.subarray(start, end);
      // A CR just before the newline is a line end, not content (it may end the previous chunk).
      if (part.length > 0 && part[part.length - 1] === 13) part = part.subarray(0, part.length - 1);
      else if (part.length === 0 && this.size > 0 && this.lastByte() === 13) this.dropLastByte();
      if (!this.take(part, this.limit)) return { lines, tooLong: true };
      lines.push(this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size));
      this.parts = [];
      this.size = 0;
      start = end + 1;
    }
    // One byte of slack while the line is open: a CR at the end of a chunk may be its line end.
    if (start < chunk.length && !this.take(chunk.subarray(start), this.limit + 1)) return { lines, tooLong: true };
    return { lines, tooLong: false };
  }

  /** Forgets the line in progress (the connection ended). */
  clear(): void {
    this.parts = [];
    this.size = 0;
  }

  private take(part: Buffer, bound: number): boolean {
    if (this.size + part.length > bound) {
      this.clear();
      this.overflowed = true;
      return false;
    }
    this.parts.push(part);
    this.size += part.length;
    return true;
  }

  private lastByte(): number | undefined {
    const last = this.parts[this.parts.length - 1];
    return last === undefined || last.length === 0 ? undefined : last[last.length - 1];
  }

  private dropLastByte(): void {
    const last = this.parts.length - 1;
    this.parts[last] = (this.parts[last] as Buffer).subarray(0, (this.parts[last] as Buffer).length - 1);
    this.size -= 1;
  }
}
