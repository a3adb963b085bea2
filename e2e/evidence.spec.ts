/**
 * Dating one photo: import a scan with a printed caption, read it with OCR, accept the date,
 * read the explained estimate and its timeline, re-run the visual analysis twice (both attempts
 * stay in the history), make two of your own bounds conflict and resolve it, undo a review, take
 * notes and find the photo by them, step through review mode, and see where the API key goes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { renderCaption } from '../test/support/caption-images';
import { test, expect } from './fixtures';
import { importFolder } from './helpers';

/** The image with a light gaussian grain, as a scanned print has. */
async function withGrain(png: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(png).metadata();
  const grain = await sharp({
    create: {
      width: width!,
      height: height!,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 10 },
    },
  })
    .png()
    .toBuffer();
  return sharp(png)
    .removeAlpha()
    .composite([{ input: grain, blend: 'multiply' }])
    .png()
    .toBuffer();
}

/** Screenshots show the estimate: scroll the side panel back to its top. */
const sideToTop = (page: Page) => page.locator('.photo-side').evaluate((el) => el.scrollTo({ top: 0 }));

test('OCR evidence, review, estimate and timeline, reruns, manual bounds in conflict, notes, review mode', async ({ app }) => {
  test.setTimeout(180_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-caption-'));
  try {
    // Film grain over the caption: a flat rendered graphic gets no visual-analysis clue at all
    // (issue 28), and this walk reviews one.
    fs.writeFileSync(
      path.join(dir, 'grandma-xmas.png'),
      await withGrain(await renderCaption('Grandma and Joe, Xmas 1942', { size: 48 })),
    );
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();

    // Open the photo.
    const tile = page.getByTestId('photo-tile').filter({ hasText: 'grandma-xmas.png' });
    await expect(tile).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await tile.dblclick();
    await expect(page.getByRole('heading', { name: 'grandma-xmas.png' })).toBeVisible();
    const estimate = page.getByTestId('evidence-area');
    await expect(estimate).toBeVisible();

    // OCR does not run on import: run it (never run, so "Run", not "Re-run") and watch the job's
    // live state reach Done; then the button offers to run it again.
    const ocrRow = page.getByTestId('rerun-ocr');
    await expect(ocrRow).toHaveAttribute('data-status', 'none');
    await expect(ocrRow.getByRole('button', { name: 'Re-run OCR' })).toHaveCount(0);
    await ocrRow.getByRole('button', { name: 'Run OCR' }).click();
    await expect(ocrRow).toContainText('Started: OCR runs.');
    await expect(ocrRow).toHaveAttribute('data-status', 'success', { timeout: 90_000 });
    await expect(ocrRow).toContainText('Done');

    const items = page.getByTestId('evidence-item');
    const ocrItem = items.filter({ hasText: '1942' }).and(page.locator('[data-source="ocr"]')).first();
    await expect(ocrItem).toBeVisible();
    await expect(ocrItem).toHaveAttribute('data-review', 'pending');
    await expect(estimate).toHaveAttribute('data-status', 'needs_review');
    // Its details: the line that was read.
    await ocrItem.getByText('Details').click();
    await expect(ocrItem).toContainText('Xmas 1942');

    // Accept it from the keyboard (A acts on the highlighted finding).
    await ocrItem.locator('.ev-kind').click();
    await page.keyboard.press('a');
    await expect(ocrItem).toHaveAttribute('data-review', 'accepted');
    await expect(estimate).toHaveAttribute('data-status', 'estimated');
    await expect(page.getByTestId('estimate-edtf')).toHaveText(/1942/);
    await expect(page.getByTestId('estimate-dacs')).toContainText('1942');
    await expect(page.getByTestId('estimate-explanation')).not.toBeEmpty();
    await expect(ocrItem).toContainText('Sets the');

    // The timeline: an accessible plot with a row per finding and the estimate band.
    const timeline = page.getByRole('img', { name: /Timeline of 1 evidence item/ });
    await expect(timeline).toBeVisible();
    await expect(timeline).toHaveAttribute('aria-label', /Estimate: .*1942/);
    await expect(page.getByTestId('timeline-row')).toHaveCount(1);
    await expect(page.getByTestId('timeline-estimate')).toHaveCount(1);
    await app.shot('evidence-photo');

    // Undo: reject with R, then Ctrl+Z puts it back to accepted.
    await ocrItem.locator('.ev-kind').click();
    await page.keyboard.press('r');
    await expect(ocrItem).toHaveAttribute('data-review', 'rejected');
    await page.keyboard.press('Control+z');
    await expect(ocrItem).toHaveAttribute('data-review', 'accepted');
    await expect(page.getByRole('status').filter({ hasText: 'Undone' })).toBeVisible();

    // Re-run the visual analysis twice (the default backend is the offline heuristic); the second
    // press after the first finished starts a new attempt, and both stay in the history.
    const aiRow = page.getByTestId('rerun-ai_analysis');
    await aiRow.getByRole('button', { name: 'Run AI analysis' }).click();
    await expect(aiRow).toHaveAttribute('data-status', 'success', { timeout: 60_000 });
    const firstAiJob = await aiRow.getAttribute('data-job-id');
    await expect(items.and(page.locator('[data-source="ai"]'))).toHaveCount(1);
    await aiRow.getByRole('button', { name: 'Re-run AI analysis' }).click();
    await expect(aiRow).not.toHaveAttribute('data-job-id', firstAiJob!);
    await expect(aiRow).toHaveAttribute('data-status', 'success', { timeout: 60_000 });
    await expect(items.and(page.locator('[data-source="ai"]'))).toHaveCount(1);
    await page.getByLabel(/Show history/).check();
    const aiItems = items.and(page.locator('[data-source="ai"]'));
    await expect(aiItems).toHaveCount(2);
    await expect(aiItems.and(page.locator('[data-superseded="true"]'))).toHaveCount(1);
    await expect(aiItems.filter({ hasText: `job #${firstAiJob}` })).toContainText('replaced by a later run');
    await page.getByLabel(/Show history/).uncheck();
    await expect(aiItems).toHaveCount(1);

    // While processing is paused a re-run waits as Queued, and pressing it again says it is already running.
    await page.getByRole('link', { name: /^Jobs/ }).click();
    await page.getByRole('button', { name: 'Pause processing' }).click();
    await page.goBack();
    await ocrRow.getByRole('button', { name: 'Re-run OCR' }).click();
    await expect(ocrRow).toHaveAttribute('data-status', 'queued');
    await expect(ocrRow).toContainText('Queued');
    await ocrRow.getByRole('button', { name: 'Re-run OCR' }).click();
    await expect(ocrRow).toContainText('Already running');
    await page.getByRole('link', { name: /^Jobs/ }).click();
    await page.getByRole('button', { name: 'Resume processing' }).click();
    await page.goBack();
    await expect(ocrRow).toHaveAttribute('data-status', 'success', { timeout: 60_000 });
    await expect(ocrRow).not.toContainText('Already running');
    // Accepted evidence is never replaced, and the same date read again is not proposed a second time.
    await expect(ocrItem).toHaveAttribute('data-review', 'accepted');
    await expect(items.and(page.locator('[data-source="ocr"]'))).toHaveCount(1);

    // A reviewer's note goes with the decision (here: rejecting the weak visual analysis).
    await aiItems.getByRole('button', { name: 'Note' }).click();
    await aiItems.getByLabel(/Review note/).fill('frame style only, not the photo');
    await aiItems.getByRole('button', { name: 'Reject' }).click();
    await expect(aiItems).toHaveAttribute('data-review', 'rejected');
    await expect(aiItems).toContainText('Note: frame style only, not the photo');
    // …and Reset puts it back to pending (the note stays) for the review mode below.
    await aiItems.getByRole('button', { name: 'Reset' }).click();
    await expect(aiItems).toHaveAttribute('data-review', 'pending');
    await expect(aiItems).toContainText('Note: frame style only, not the photo');

    // ↑ / ↓ move the highlight between findings.
    await ocrItem.locator('.ev-kind').click();
    await expect(ocrItem).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(aiItems).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('ArrowUp');
    await expect(ocrItem).toHaveAttribute('aria-current', 'true');

    // The manual form explains what main rejects, next to the field.
    const form = page.getByTestId('manual-form');
    await form.getByLabel('Constraint').selectOption('not_before');
    await form.getByLabel('Year').fill('1700');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(form.getByRole('alert')).toContainText('1826 or later');

    // Two bounds that cannot both hold: a conflict, named and drawn in red.
    await form.getByLabel('Year').fill('1950');
    await form.getByLabel('Note').fill('car is a 1950 Ford');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(items.filter({ has: page.locator('.ev-summary', { hasText: 'Not before 1950' }) })).toBeVisible();
    await form.getByLabel('Constraint').selectOption('not_after');
    await form.getByLabel('Year').fill('1945');
    await form.getByLabel('Note').fill('print stamped by a studio that closed in 1945');
    await form.getByRole('button', { name: 'Add constraint' }).click();
    await expect(estimate).toHaveAttribute('data-status', 'conflict');
    await expect(page.getByTestId('estimate-status')).toHaveText('Conflicting evidence');
    await expect(page.getByTestId('estimate-conflicts')).toBeVisible();
    await expect(items.and(page.locator('[data-conflict="true"]'))).toHaveCount(2);
    const redRows = page.locator('[data-testid="timeline-row"][data-conflict="true"]');
    await expect(redRows).toHaveCount(2);
    await expect(redRows.first().locator('title')).toHaveText(/Conflict: /);
    await sideToTop(page);
    await app.shot('evidence-conflict');

    // Edit one (the form fills in), then delete the other: the conflict resolves.
    const bySummary = (text: string) => items.filter({ has: page.locator('.ev-summary', { hasText: text }) });
    const notAfter = bySummary('Not after 1945');
    await notAfter.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('Year')).toHaveValue('1945');
    await form.getByLabel('Year').fill('1946');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(bySummary('Not after 1946')).toBeVisible();
    await expect(estimate).toHaveAttribute('data-status', 'conflict');
    const notBefore = bySummary('Not before 1950');
    await notBefore.getByRole('button', { name: 'Delete' }).click();
    await notBefore.getByRole('button', { name: 'Delete' }).click();
    await expect(notBefore).toHaveCount(0);
    await expect(estimate).not.toHaveAttribute('data-status', 'conflict');
    await expect(items.and(page.locator('[data-conflict="true"]'))).toHaveCount(0);
    await expect(page.getByTestId('estimate-dacs')).toContainText('1942');
    await sideToTop(page);
    await app.shot('evidence-timeline');

    // Notes: saved on Ctrl+Enter, and searchable from the library like the text OCR read.
    const notes = page.getByRole('textbox', { name: 'Notes', exact: true });
    await notes.fill('From the Hartley family album, page 12');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('notes-state')).toHaveText('Saved');

    // The same view at a small window.
    await page.setViewportSize({ width: 1024, height: 700 });
    await sideToTop(page);
    await app.shot('evidence-small');
    await page.setViewportSize({ width: 1360, height: 860 });

    await page.keyboard.press('Escape'); // leaves the notes field
    await page.keyboard.press('Escape'); // back to the library
    await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
    const search = page.getByLabel('Search filenames, notes and text in photos');
    await search.fill('Hartley');
    await expect(page.getByTestId('photo-tile')).toHaveCount(1);
    await search.fill('Grandma');
    await expect(page.getByTestId('photo-tile')).toHaveCount(1);
    await search.fill('');

    // The year range and the review filters.
    await page.getByLabel('From year').fill('1950');
    await expect(page.getByTestId('photo-count')).toContainText('0 photos');
    await page.getByLabel('From year').fill('1940');
    await page.getByLabel('To year').fill('1943');
    await expect(page.getByTestId('photo-tile')).toHaveCount(1);
    await app.shot('library-filters');
    await page.setViewportSize({ width: 1024, height: 700 });
    await app.shot('library-filters-small');
    await page.setViewportSize({ width: 1360, height: 860 });
    await page.getByLabel('From year').fill('');
    await page.getByLabel('To year').fill('');
    await page.getByLabel('Show').selectOption('needs_review');
    await expect(page.getByTestId('photo-tile')).toHaveCount(1); // the AI finding is still pending
    await page.getByLabel('Show').selectOption('all');

    // Review mode steps through what needs review, and says when nothing is left.
    await page.getByRole('button', { name: 'Review mode' }).click();
    await expect(page.getByTestId('review-left')).toHaveText('1 photo left to review');
    await app.shot('review-mode');
    const pendingAi = items.and(page.locator('[data-source="ai"]'));
    await pendingAi.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByTestId('review-left')).toHaveText('0 photos left to review');
    await expect(page.getByText('Nothing left to review.')).toBeVisible();
    await page.getByRole('link', { name: 'Exit review' }).click();

    // Settings: the API key is explained for browser mode, never shown.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Backend').selectOption('openai-compatible');
    const key = page.getByTestId('api-key');
    await expect(page.getByTestId('api-key-state')).toHaveText(/No key stored|environment/);
    if (app.target === 'browser') await expect(key).toContainText('CIRCA_AI_API_KEY');
    await app.shot('settings-api-key');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
