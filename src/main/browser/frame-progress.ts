/**
 * Where a client's byte stream stands between WebSocket messages, read from the frame headers
 * alone (RFC 6455 §5.2): `ws` buffers an unfinished message until it ends, so a client that
 * announces a large frame and never finishes it pins that memory. The server uses this to close a
 * message that stalls (connection-guard.ts). It does not validate frames: `ws` does that, and
 * closes the socket on anything malformed.
 */

export class FrameProgress {
  private readonly header = Buffer.alloc(14);
  private headerBytes = 0;
  private headerNeeded = 2;
  private payloadLeft = 0;
  /** A data frame without FIN was seen: the message goes on in continuation frames. */
  private fragmented = false;
  private control = false;
  private fin = false;

  /** True while a message has begun and not ended (a header, a payload or a fragment is pending). */
  get inMessage(): boolean {
    return this.headerBytes > 0 || this.payloadLeft > 0 || this.fragmented;
  }

  /** Accounts for bytes read from the client, in order. */
  feed(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.payloadLeft > 0) {
        const take = Math.min(this.payloadLeft, chunk.length - at);
        this.payloadLeft -= take;
        at += take;
        if (this.payloadLeft === 0) this.frameEnded();
        continue;
      }
      this.header[this.headerBytes++] = chunk[at++];
      if (this.headerBytes === 2) this.headerNeeded = headerLength(this.header);
      if (this.headerBytes === this.headerNeeded) this.headerEnded();
    }
  }

  private headerEnded(): void {
    const h = this.header;
    const opcode = h[0] & 0x0f;
    this.fin = (h[0] & 0x80) !== 0;
    this.control = opcode >= 0x8;
    const len7 = h[1] & 0x7f;
    this.payloadLeft = len7 === 126 ? h.readUInt16BE(2) : len7 === 127 ? Number(h.readBigUInt64BE(2)) : len7;
    this.headerBytes = 0;
    this.headerNeeded = 2;
    if (this.payloadLeft === 0) this.frameEnded();
  }

  private frameEnded(): void {
    // Control frames may come between the fragments of a message; they neither start nor end one.
    if (!this.control) this.fragmented = !this.fin;
  }
}

/** The full header length once its first two bytes are known: base, extended length, mask key. */
function headerLength(h: Buffer): number {
  const len7 = h[1] & 0x7f;
  const masked = (h[1] & 0x80) !== 0;
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);
}
