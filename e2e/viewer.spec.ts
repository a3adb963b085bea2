/**
 * Inspecting a photograph: a TIFF master too big to show whole is shown as a zoom view of tiles;
 * the archivist zooms to actual size with the keyboard, pans, zooms with the wheel and fits again,
 * and reads a detail that the fitted view cannot show. A JPEG zooms the same way, as itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { renderCaption } from '../test/support/caption-images';
import { test, expect } from './fixtures';
import { importFolder } from './helpers';

/** A 6,000 × 4,000 px "scan" with a small caption near its lower right corner: legible only zoomed in. */
async function makeScans(dir: string) {
  const caption = await renderCaption('PLATE 1937', { size: 28 });
  const { width = 0, height = 0 } = await sharp(caption).metadata();
  await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#b9a487' } })
    .composite([
      { input: caption, left: 4700, top: 3100 },
      {
        input: await sharp({ create: { width: 600, height: 400, channels: 3, background: '#5b4a3a' } })
          .png()
          .toBuffer(),
        left: 700,
        top: 600,
      },
    ])
    .tiff({ compression: 'lzw' })
    .toFile(path.join(dir, 'master-scan.tif'));
  await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#8795a3' } })
    .jpeg()
    .toFile(path.join(dir, 'snapshot.jpg'));
  return { caption: { left: 4700, top: 3100, width, height } };
}

test('zooms and pans a TIFF master to full resolution, and a JPEG the same way', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-viewer-'));
  try {
    const { caption } = await makeScans(dir);
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tile = page.getByTestId('photo-tile').filter({ hasText: 'master-scan.tif' });
    await expect(tile).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await tile.dblclick();
    await expect(page.getByRole('heading', { name: 'master-scan.tif' })).toBeVisible();

    // The zoom view is there at once: its tiles are cut as they are asked for, the pyramid made behind.
    const viewer = page.getByTestId('photo-viewer');
    await expect(viewer).toHaveAttribute('data-kind', 'tiles');
    const port = page.getByTestId('viewer-port');
    const percent = page.getByTestId('viewer-percent');
    await expect(percent).not.toHaveText('100%');
    await expect(port).toHaveAttribute('data-fitted', 'true');
    await app.shot('viewer-tiff-fit');

    // "1": actual size. The full-resolution tiles (level 4 of 0–4) are what is drawn.
    await port.focus();
    await page.keyboard.press('1');
    await expect(percent).toHaveText('100%');
    const topTiles = page.locator('img.viewer-tile[data-level="4"]');
    await expect
      .poll(() => topTiles.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length))
      .toBeGreaterThan(0);
    // Only the tiles in view are asked for, not the whole level (12 × 8 = 96 tiles).
    expect(await topTiles.count()).toBeLessThanOrEqual(12);

    // Pan to the caption with the keyboard (arrows pan while zoomed in), then drag the last bit.
    const box = (await port.boundingBox())!;
    const centreOn = async (x: number, y: number) => {
      for (let i = 0; i < 40; i++) {
        const scaleBefore = Number(await port.getAttribute('data-scale'));
        expect(scaleBefore).toBeCloseTo(1);
        const stage = (await page.locator('.viewer-stage').boundingBox())!;
        const dx = box.x + box.width / 2 - (stage.x + x);
        const dy = box.y + box.height / 2 - (stage.y + y);
        if (Math.abs(dx) < 40 && Math.abs(dy) < 40) return;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(
          box.x + box.width / 2 + Math.max(-300, Math.min(300, dx)),
          box.y + box.height / 2 + Math.max(-300, Math.min(300, dy)),
          {
            steps: 4,
          },
        );
        await page.mouse.up();
      }
    };
    await page.keyboard.press('ArrowLeft'); // pans, does not go to the previous photo
    await expect(page.getByRole('heading', { name: 'master-scan.tif' })).toBeVisible();
    await centreOn(caption.left + caption.width / 2, caption.top + caption.height / 2);
    await expect.poll(() => topTiles.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete))).toBe(true);
    await app.shot('viewer-tiff-actual-size');

    // The wheel zooms about the pointer; "0" fits again; double click goes to 1:1 there.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await expect.poll(async () => Number(await port.getAttribute('data-scale'))).toBeLessThan(0.9);
    await page.keyboard.press('0');
    await expect(port).toHaveAttribute('data-fitted', 'true');
    await port.dblclick({ position: { x: box.width / 2, y: box.height / 2 } });
    await expect(percent).toHaveText('100%');
    await page.getByRole('button', { name: 'Fit' }).click();
    await expect(port).toHaveAttribute('data-fitted', 'true');

    // A JPEG the window can draw is zoomed as itself, with the same controls.
    await page.keyboard.press('Escape');
    await page.getByTestId('photo-tile').filter({ hasText: 'snapshot.jpg' }).dblclick();
    await expect(page.getByRole('heading', { name: 'snapshot.jpg' })).toBeVisible();
    await expect(viewer).toHaveAttribute('data-kind', 'image');
    await expect.poll(() => page.getByTestId('photo-original').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(1600);
    const fitted = Number(await port.getAttribute('data-scale'));
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => Number(await port.getAttribute('data-scale'))).toBeCloseTo(fitted * 1.25 * 1.25, 3);
    await page.getByRole('button', { name: '1:1' }).click();
    await expect(percent).toHaveText('100%');
    await app.shot('viewer-jpeg-actual-size');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
