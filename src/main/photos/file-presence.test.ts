/** Whether files are there, on a real disk: the same answers as asking for each file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesPresent } from './file-presence';

function tree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-presence-'));
  const big = path.join(root, 'box-1');
  const small = path.join(root, 'box-2');
  fs.mkdirSync(big);
  fs.mkdirSync(small);
  for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(big, `scan-${i}.tif`), 'x');
  for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(small, `scan-${i}.tif`), 'x');
  fs.symlinkSync(path.join(big, 'scan-0.tif'), path.join(big, 'link-good.tif'));
  fs.symlinkSync(path.join(root, 'nowhere.tif'), path.join(big, 'link-dangling.tif'));
  fs.writeFileSync(path.join(root, 'a-file'), 'x');
  return { root, big, small };
}

describe('whether photos’ files are there', () => {
  it('answers as asking for each file would, for listed folders, small ones, missing ones and links', async () => {
    const { root, big, small } = tree();
    const paths = [
      ...Array.from({ length: 34 }, (_, i) => path.join(big, `scan-${i}.tif`)), // 30 there, 4 not
      path.join(big, 'link-good.tif'),
      path.join(big, 'link-dangling.tif'),
      path.join(big, 'SCAN-1.TIF'), // ext4 minds case: not there
      ...Array.from({ length: 4 }, (_, i) => path.join(small, `scan-${i}.tif`)), // 3 there, 1 not
      ...Array.from({ length: 12 }, (_, i) => path.join(root, 'unplugged', `scan-${i}.tif`)),
      path.join(root, 'a-file', 'scan-0.tif'),
    ];
    const shuffled = [...paths].sort(() => Math.random() - 0.5);

    const found = await filesPresent(shuffled);

    expect(found).toEqual(shuffled.map((p) => fs.existsSync(p)));
    expect(found.filter(Boolean)).toHaveLength(30 + 1 + 3);
  });

  it('asks again for each call: a file that appeared or went since the last is seen as it is now', async () => {
    const { big } = tree();
    const first = Array.from({ length: 10 }, (_, i) => path.join(big, `scan-${i}.tif`));
    expect(await filesPresent(first)).toEqual(first.map(() => true));

    fs.writeFileSync(path.join(big, 'late.tif'), 'x');
    fs.rmSync(path.join(big, 'scan-3.tif'));
    const second = [...first, path.join(big, 'late.tif')];
    expect(await filesPresent(second)).toEqual(second.map((p) => !p.endsWith('scan-3.tif')));
  });
});
