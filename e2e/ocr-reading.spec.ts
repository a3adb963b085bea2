/**
 * What OCR read, shown to the archivist: a caption with no date is still read and shown (with
 * Tesseract's confidence), selecting a line draws its box over the image, and a caption whose
 * year OCR reads with a double quote ("Summer "62") still gives a date.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { captionSet } from '../test/support/caption-set';
import { test, expect } from './fixtures';
import { importFolder, openPhoto, runOcr } from './helpers';

test('the text OCR read is shown with its confidence, and a selected line is boxed on the image', async ({ app }) => {
  test.setTimeout(240_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-ocr-reading-'));
  try {
    const set = captionSet();
    // A mount under a photograph with no date on it, and one whose caption is "Summer ’62 at the lake".
    const undated = set.find((c) => c.kind === 'mount-label' && !c.dated)!;
    const summer = set.find((c) => c.kind === 'mount-label' && c.text === 'Summer ’62 at the lake')!;
    fs.writeFileSync(path.join(dir, 'mount-undated.png'), await undated.render());
    fs.writeFileSync(path.join(dir, 'mount-summer.png'), await summer.render());
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();

    // Before OCR: the panel says so.
    await openPhoto(page, 'mount-undated.png');
    const reading = page.getByTestId('ocr-reading');
    await expect(reading).toContainText('Not read yet');

    // After OCR: the caption's text, with a confidence, though it holds no date.
    await runOcr(page);
    const lines = reading.getByTestId('ocr-line');
    const caption = lines.filter({ hasText: undated.text.split(' ').slice(-2).join(' ') });
    await expect(caption).toHaveCount(1);
    await expect(caption).toContainText(/\d+ %/);
    await expect(reading).toContainText(/confidence \d+ %/);
    await expect(page.locator('[data-source="ocr"]')).toHaveCount(0);

    // Selecting the line boxes it on the image, below the photograph (the caption's place).
    await expect(page.getByTestId('ocr-box')).toHaveCount(0);
    await caption.click();
    await expect(caption).toHaveAttribute('aria-pressed', 'true');
    const box = page.getByTestId('ocr-box');
    await expect(box).toBeVisible();
    const stage = await page.getByTestId('photo-original').boundingBox();
    const b = await box.boundingBox();
    expect(stage && b).toBeTruthy();
    // Inside the image, in its lower part, and about as wide as a caption (not the whole image).
    expect(b!.x).toBeGreaterThanOrEqual(stage!.x - 1);
    expect(b!.x + b!.width).toBeLessThanOrEqual(stage!.x + stage!.width + 1);
    expect(b!.y).toBeGreaterThan(stage!.y + stage!.height * 0.6);
    expect(b!.width).toBeLessThan(stage!.width * 0.95);
    await app.shot('ocr-reading-selected-line');
    // Selecting it again hides the box.
    await caption.click();
    await expect(page.getByTestId('ocr-box')).toHaveCount(0);

    // The "Summer ’62" caption: the text is shown and the two-digit year becomes OCR evidence.
    await page.getByRole('link', { name: '← Library' }).click();
    await openPhoto(page, 'mount-summer.png');
    await runOcr(page);
    await expect(reading.getByTestId('ocr-line').filter({ hasText: /Summer/ })).toHaveCount(1);
    const ocrItem = page.locator('[data-source="ocr"]').filter({ hasText: '1962' });
    await expect(ocrItem.first()).toBeVisible();
    await reading
      .getByTestId('ocr-line')
      .filter({ hasText: /Summer/ })
      .click();
    await expect(page.getByTestId('ocr-box')).toBeVisible();
    await app.shot('ocr-reading-dated');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
