import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FrameProgress } from './frame-progress';

/** A masked client frame, as a browser sends it. */
function frame(opcode: number, payload: Buffer, fin = true): Buffer {
  const head: number[] = [(fin ? 0x80 : 0) | opcode];
  if (payload.length < 126) head.push(0x80 | payload.length);
  else if (payload.length < 0x10000) head.push(0x80 | 126, payload.length >> 8, payload.length & 0xff);
  else {
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(payload.length));
    head.push(0x80 | 127, ...big);
  }
  return Buffer.concat([Buffer.from(head), crypto.randomBytes(4), payload]);
}

describe('FrameProgress', () => {
  it('is between messages after whole frames of every length form, however the bytes are split', () => {
    const bytes = Buffer.concat([
      frame(0x1, Buffer.alloc(10)),
      frame(0x1, Buffer.alloc(300)),
      frame(0x1, Buffer.alloc(70_000)),
      frame(0x9, Buffer.alloc(0)),
    ]);
    for (const step of [1, 7, 64, 65_536, bytes.length]) {
      const p = new FrameProgress();
      for (let i = 0; i < bytes.length; i += step) p.feed(bytes.subarray(i, i + step));
      expect(p.inMessage).toBe(false);
    }
  });

  it('is inside a message while a header or payload is unfinished', () => {
    const whole = frame(0x1, Buffer.alloc(70_000));
    const p = new FrameProgress();
    p.feed(whole.subarray(0, 1));
    expect(p.inMessage).toBe(true);
    p.feed(whole.subarray(1, 5000));
    expect(p.inMessage).toBe(true);
    p.feed(whole.subarray(5000));
    expect(p.inMessage).toBe(false);
  });

  it('follows a fragmented message to its final frame, across a control frame', () => {
    const p = new FrameProgress();
    p.feed(frame(0x1, Buffer.from('ab'), false));
    expect(p.inMessage).toBe(true);
    p.feed(frame(0x9, Buffer.alloc(0)));
    expect(p.inMessage).toBe(true);
    p.feed(frame(0x0, Buffer.from('cd'), true));
    expect(p.inMessage).toBe(false);
  });
});
