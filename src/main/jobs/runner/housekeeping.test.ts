import { describe, expect, it } from 'vitest';
import { isOwnerGone } from './housekeeping';

describe('isOwnerGone', () => {
  const alive = (pid: number) => pid === 200;
  it('is true only for a runner of this host whose process does not exist', () => {
    expect(isOwnerGone('box:100:ab12cd/w0', 'box', alive)).toBe(true);
    expect(isOwnerGone('box:200:ab12cd/w3', 'box', alive)).toBe(false); // alive
    expect(isOwnerGone('other:100:ab12cd/w0', 'box', alive)).toBe(false); // another machine: cannot know
    expect(isOwnerGone(`box:${process.pid}:ab12cd/w0`, 'box', () => false)).toBe(false); // this very process
    expect(isOwnerGone('gone:1/w0', 'box', alive)).toBe(false); // not a runner id we write
    expect(isOwnerGone('host.with:colons:100:ab12cd/w1', 'host.with:colons', alive)).toBe(true);
  });
});
