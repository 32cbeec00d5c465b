/**
 * Turns a child's raw output bytes into text chunks of whole lines: UTF-8 decoded across reads,
 * the complete lines of each read emitted together (split so no chunk exceeds the size bound), a
 * trailing partial line held until its newline — or emitted once it alone reaches the bound, and
 * at the end of the stream.
 */
import { StringDecoder } from 'node:string_decoder';

/** Largest chunk, in UTF-16 code units (a line longer than this is cut). */
export const DEFAULT_CHUNK_CHARS = 4096;

export class LineChunker {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(
    private readonly emit: (text: string) => void,
    private readonly maxChars = DEFAULT_CHUNK_CHARS,
  ) {}

  push(data: Buffer | string): void {
    this.pending += typeof data === 'string' ? data : this.decoder.write(data);
    const lastNewline = this.pending.lastIndexOf('\n');
    if (lastNewline >= 0) {
      const complete = this.pending.slice(0, lastNewline + 1);
      this.pending = this.pending.slice(lastNewline + 1);
      this.emitBounded(complete);
    }
    while (this.pending.length >= this.maxChars) {
      const end = safeCut(this.pending, this.maxChars);
      this.emit(this.pending.slice(0, end));
      this.pending = this.pending.slice(end);
    }
  }

  /** Emits what is left (a last line without its newline). */
  end(): void {
    this.pending += this.decoder.end();
    if (this.pending) this.emitBounded(this.pending);
    this.pending = '';
  }

  /** Whole lines, grouped into chunks of at most maxChars (cut inside a line only when it alone is longer). */
  private emitBounded(text: string): void {
    let rest = text;
    while (rest.length > this.maxChars) {
      const cut = rest.lastIndexOf('\n', this.maxChars - 1);
      const end = cut >= 0 ? cut + 1 : safeCut(rest, this.maxChars);
      this.emit(rest.slice(0, end));
      rest = rest.slice(end);
    }
    if (rest) this.emit(rest);
  }
}

/** `end`, moved back one when it would split a surrogate pair between two chunks. */
function safeCut(text: string, end: number): number {
  const before = text.charCodeAt(end - 1);
  return end > 1 && before >= 0xd800 && before <= 0xdbff ? end - 1 : end;
}
