/**
 * A multi-page TIFF (a print's front, its back with an inscription, and a mount) is one photo in
 * the library; the photo screen shows "Page 1 of 3" with a picture of each page, and choosing a
 * page shows that page's own zoom view, cut from that page of the original as it is asked for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { renderCaption } from '../test/support/caption-images';
import { test, expect } from './fixtures';
import { importFolder } from './helpers';

const [W, H] = [2400, 1800];

/** Three pages of different tone, each with its own words, in one LZW TIFF. */
async function writeAlbumLeaf(file: string) {
  const pages = [
    { background: '#8a7560', words: 'FRONT: harbour, 1920s' },
    { background: '#e9e2d0', words: 'BACK: To Ada, Whitby 1926' },
    { background: '#5d6b74', words: 'MOUNT: Studio Norman' },
  ];
  const raws: Buffer[] = [];
  for (const p of pages) {
    const caption = await renderCaption(p.words, { size: 64 });
    raws.push(
      await sharp({ create: { width: W, height: H, channels: 3, background: p.background } })
        .composite([{ input: caption, left: 300, top: 700 }])
        .removeAlpha()
        .raw()
        .toBuffer(),
    );
  }
  await sharp(Buffer.concat(raws), { raw: { width: W, height: H * pages.length, channels: 3, pageHeight: H } })
    .tiff({ compression: 'lzw' })
    .toFile(file);
}

test('every page of a multi-page TIFF can be seen and zoomed, the file staying one photo', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-pages-'));
  try {
    await writeAlbumLeaf(path.join(dir, 'album-leaf.tif'));
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tiles = page.getByTestId('photo-tile');
    await expect(tiles).toHaveCount(1);
    await expect(tiles.first()).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await tiles.first().dblclick();
    await expect(page.getByRole('heading', { name: 'album-leaf.tif' })).toBeVisible();

    const viewer = page.getByTestId('photo-viewer');
    const picker = page.getByTestId('page-picker');
    await expect(picker.getByTestId('page-label')).toHaveText('Page 1 of 3');
    await expect(picker.getByRole('button')).toHaveCount(3);
    await expect(picker.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-pressed', 'true');
    await expect(viewer).toHaveAttribute('data-kind', 'tiles');
    // Each page's picture is made and shown.
    await expect
      .poll(() =>
        picker.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
      )
      .toBe(3);
    await app.shot('scan-pages-page-1');

    // Page 2: its own zoom view, its tiles asked for by page.
    await picker.getByRole('button', { name: 'Page 2' }).click();
    await expect(viewer).toHaveAttribute('data-page', '2');
    await expect(picker.getByTestId('page-label')).toHaveText('Page 2 of 3');
    await expect(picker.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-pressed', 'true');
    await expect(viewer).toHaveAttribute('data-kind', 'tiles');
    const pageTiles = page.locator('img.viewer-tile[src*="/p2/"]');
    await expect
      .poll(() => pageTiles.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length))
      .toBeGreaterThan(0);
    expect(await page.locator('img.viewer-tile:not([src*="/p2/"])').count()).toBe(0);
    await expect(page.getByTestId('viewer-port')).toHaveAttribute('data-fitted', 'true');
    await app.shot('scan-pages-page-2');

    // Actual size on page 2: full-resolution tiles of that page (level 3 of 0–3).
    await page.getByTestId('viewer-port').focus();
    await page.keyboard.press('1');
    await expect(page.getByTestId('viewer-percent')).toHaveText('100%');
    const fullTiles = page.locator('img.viewer-tile[data-level="3"][src*="/p2/"]');
    await expect
      .poll(() => fullTiles.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length))
      .toBeGreaterThan(0);
    await app.shot('scan-pages-page-2-actual-size');

    // Back to page 1: fitted again, its own tiles.
    await picker.getByRole('button', { name: 'Page 1' }).click();
    await expect(viewer).toHaveAttribute('data-page', '1');
    await expect(page.getByTestId('viewer-port')).toHaveAttribute('data-fitted', 'true');
    await expect
      .poll(() =>
        page.locator('img.viewer-tile').evaluateAll((imgs) => imgs.every((i) => !(i as HTMLImageElement).src.includes('/p2/'))),
      )
      .toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
