/** The README's Keyboard table lists exactly the keys of the `?` overlay (keymap.ts), in its order. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYMAP } from './keymap';

function readmeKeyTable(): { where: string; keys: string; does: string }[] {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../../README.md'), 'utf8');
  const section = readme.split('\n### Keyboard\n')[1];
  if (!section) throw new Error('README.md has no "### Keyboard" section');
  const lines = section.split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  const rows = lines.slice(first, end).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim()),
  );
  return rows.slice(2).map(([where, keys, does]) => ({ where, keys, does }));
}

describe('keyboard documentation', () => {
  it('the README table and the ? overlay list the same keys', () => {
    expect(readmeKeyTable()).toEqual(KEYMAP.map((k) => ({ ...k })));
  });

  it('every entry says where, which key and what it does', () => {
    for (const k of KEYMAP) {
      expect(k.where.length, JSON.stringify(k)).toBeGreaterThan(0);
      expect(k.keys.length, JSON.stringify(k)).toBeGreaterThan(0);
      expect(k.does.length, JSON.stringify(k)).toBeGreaterThan(0);
    }
  });
});
