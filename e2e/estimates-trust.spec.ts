/**
 * Issue 28's walk: a folder of mixed material — camera photos, "old-look" copies and a colour photo
 * without metadata, a drawing, a flat graphic — with the default offline heuristic run on
 * everything. Afterwards no photo without a finding shows a date, sorts or filters as dated, or
 * exports a DateCreated; the grid says "undated · 1 weak clue" where the heuristic left one. Only
 * when the archivist asks to include clues do the clue-only photos sort and filter by their clues.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { GRAPHICS } from '../test/support/calibration-set';
import { test, expect } from './fixtures';

import { importFolder } from './helpers';

const CORPUS = path.resolve('../shared/corpus/exif-samples/jpg');
/** Camera originals: each has its camera's own date, a finding. */
const CAMERA = ['Canon_40D.jpg', 'gps/DSCN0010.jpg', 'Nikon_D70.jpg'];

test('after the heuristic runs on mixed material, only photos with a finding look dated', async ({ app }) => {
  test.setTimeout(240_000);
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-trust-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-trust-export-'));
  try {
    for (const name of CAMERA) fs.copyFileSync(path.join(CORPUS, name), path.join(dir, path.basename(name)));
    // No metadata (sharp drops it): nothing in these files dates them.
    const iguana = path.join(CORPUS, 'Canon_40D.jpg');
    await sharp(iguana).jpeg().toFile(path.join(dir, 'iguana-no-exif.jpg'));
    await sharp(iguana).tint({ r: 112, g: 66, b: 20 }).jpeg().toFile(path.join(dir, 'sepia-look.jpg'));
    await sharp(path.join(CORPUS, 'Nikon_D70.jpg')).greyscale().jpeg().toFile(path.join(dir, 'greyscale-copy.jpg'));
    await sharp(GRAPHICS['line-drawing.png']).png().toFile(path.join(dir, 'line-drawing.png'));
    await sharp(GRAPHICS['blue-rectangle.png']).png().toFile(path.join(dir, 'blue-rectangle.png'));
    const withFinding = new Set(CAMERA.map((n) => path.basename(n)));
    const total = fs.readdirSync(dir).length;

    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    await expect(page.locator('[data-testid="photo-tile"][data-status="ready"]')).toHaveCount(total, { timeout: 60_000 });

    const tile = (name: string) => page.getByTestId('photo-tile').filter({ hasText: name });
    const dateOf = (name: string) => tile(name).locator('.tile-date');

    // The default backend is the offline heuristic: run it on everything.
    await page.getByTestId('photo-grid').focus();
    await page.keyboard.press('Control+a');
    await page.getByLabel('What to re-run').selectOption('ai_analysis');
    await page.getByRole('button', { name: /^Re-run/ }).click();
    // The photographs without a finding get a clue; it never shows as a date.
    for (const name of ['sepia-look.jpg', 'greyscale-copy.jpg', 'iguana-no-exif.jpg']) {
      await expect(dateOf(name)).toHaveText(/^undated · \d weak clues?$/, { timeout: 120_000 });
    }
    for (const name of withFinding) await expect(dateOf(name)).toContainText('20');
    await expect(dateOf('line-drawing.png')).toHaveText('undated');
    await expect(dateOf('blue-rectangle.png')).toHaveText('undated');
    await app.shot('trust-grid');

    // Sorted by date, the photos with a finding come first; the rest sort as undated.
    await page.getByLabel('Sort by').selectOption('date');
    const names = async () =>
      (await page.getByTestId('photo-tile').locator('.tile-name').allTextContents()).slice(0, withFinding.size);
    await expect.poll(async () => new Set(await names())).toEqual(withFinding);
    // A year range holds only them.
    await page.getByLabel('From year').fill('1826');
    await page.getByLabel('To year').fill('2100');
    await expect(page.getByTestId('photo-count')).toContainText(`${withFinding.size} photos`);
    // Unless the archivist asks to include clues: then the clue-only photographs are placed by
    // their clues too (still undated on their tiles), and the graphics, with no clue, are not.
    await page.getByLabel('with clues').check();
    const clueOnly = ['sepia-look.jpg', 'greyscale-copy.jpg', 'iguana-no-exif.jpg'];
    await expect(page.getByTestId('photo-count')).toContainText(`${withFinding.size + clueOnly.length} photos · `);
    await expect(page.getByTestId('photo-count')).toContainText('clues counted');
    await expect(dateOf('sepia-look.jpg')).toHaveText(/^undated · \d weak clues?$/);
    await app.shot('trust-with-clues');
    await page.getByLabel('From year').fill('');
    await page.getByLabel('To year').fill('');
    const graphics = async () => (await page.getByTestId('photo-tile').locator('.tile-name').allTextContents()).slice(-2);
    await expect.poll(async () => new Set(await graphics())).toEqual(new Set(['line-drawing.png', 'blue-rectangle.png']));
    await page.getByLabel('with clues').uncheck();
    await page.getByLabel('From year').fill('');
    await page.getByLabel('To year').fill('');
    await expect(page.getByTestId('photo-tile')).toHaveCount(total);

    // The photo screen: undated, the clue named as a clue, the rule written down.
    await tile('sepia-look.jpg').dblclick();
    await expect(page.getByTestId('estimate-dacs')).toHaveText('Undated');
    await expect(page.getByTestId('estimate-clues')).toContainText('weak clue');
    // The clue reads as a weak one wherever it is shown: its interval spans decades.
    await expect(page.getByTestId('evidence-clue').first()).toHaveText(
      /^Weak clue spanning \d+ years, not a date: visual analysis not yet accepted$/,
    );
    await expect(page.getByTestId('estimate-explanation')).toContainText(
      /weak clue spanning \d+ years: visual analysis not yet accepted/,
    );
    await expect(page.getByTestId('estimate-explanation')).toContainText('A clue is not a date');
    await expect(page.getByTestId('evidence-item').first().locator('.ev-head')).toContainText(/^Weak clue:\s*circa \d{4}–\d{4}/);
    await app.shot('trust-photo-clue');
    // Inside the analysis, each wide clue says so beside its number.
    await page.getByTestId('evidence-item').first().getByText('Details').click();
    await expect(page.getByTestId('evidence-item').first().locator('.ev-clue-weak').first()).toContainText(
      /weak clue spanning \d+ years/,
    );
    await page.getByTestId('evidence-item').first().locator('.ev-clue-weak').first().scrollIntoViewIfNeeded();
    await app.shot('trust-photo-clue-details');
    await page.getByRole('link', { name: 'Library', exact: true }).first().click();

    // Exports: no DateCreated for any photo without an accepted finding; the CSV keeps the doubt.
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.getByLabel(/^The whole library/).check();
    await dialog.getByLabel(/^XMP sidecars/).check();
    await dialog.getByLabel('Export folder').fill(out);
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(dialog.getByTestId('export-status')).toHaveAttribute('data-status', 'success', { timeout: 60_000 });
    const [csvName] = fs.readdirSync(out).filter((f) => f.endsWith('.csv'));
    const csv = fs.readFileSync(path.join(out, csvName), 'utf8');
    expect(csv).toMatch(/weak clue spanning \d+ years, not a date/);
    const [xmpDir] = fs.readdirSync(out).filter((f) => f.endsWith('-xmp'));
    const sidecars = fs.readdirSync(path.join(out, xmpDir));
    expect(sidecars).toHaveLength(total);
    for (const f of sidecars) {
      expect(fs.readFileSync(path.join(out, xmpDir, f), 'utf8'), f).not.toMatch(/DateCreated|dc:date/);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  }
});
