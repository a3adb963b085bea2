/**
 * Issue 28's walk: a folder of mixed material — camera photos, "old-look" copies and a colour photo
 * without metadata, a drawing, a flat graphic — with the default offline heuristic run on
 * everything. Afterwards no photo without a finding shows a date, sorts or filters as dated, or
 * exports a DateCreated; the grid says "undated · 1 weak clue" where the heuristic left one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { GRAPHICS } from '../test/support/calibration-set';
import type { Page } from '@playwright/test';
import type { CallInput, CallName, CallOutput } from '../src/shared/contract';
import { test, expect } from './fixtures';

/** One contract call from the page, typed. */
const call = <N extends CallName>(page: Page, name: N, input: CallInput<N>) =>
  page.evaluate(([n, i]) => window.circa!.call(n as never, i as never), [name, input] as const) as Promise<CallOutput<N>>;
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
    await sharp(iguana).greyscale().tint({ r: 112, g: 66, b: 20 }).jpeg().toFile(path.join(dir, 'sepia-look.jpg'));
    await sharp(path.join(CORPUS, 'Nikon_D70.jpg')).greyscale().jpeg().toFile(path.join(dir, 'greyscale-copy.jpg'));
    await sharp(GRAPHICS['line-drawing.png']).png().toFile(path.join(dir, 'line-drawing.png'));
    await sharp(GRAPHICS['blue-rectangle.png']).png().toFile(path.join(dir, 'blue-rectangle.png'));
    const withFinding = new Set(CAMERA.map((n) => path.basename(n)));
    const total = fs.readdirSync(dir).length;

    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    await expect(page.locator('[data-testid="photo-tile"][data-status="ready"]')).toHaveCount(total, { timeout: 60_000 });

    // The default backend is the offline heuristic: run it on everything and wait for it.
    const listed = await call(page, 'photos.list', { sort: 'imported', filter: 'all', limit: 100 });
    const ids = listed.items.map((p) => p.id);
    await call(page, 'photos.rerun', { ids, type: 'ai_analysis' });
    await expect
      .poll(async () => (await call(page, 'jobs.counts', {})).counts, { timeout: 120_000 })
      .toMatchObject({ queued: 0, running: 0 });

    // What the library holds now, through the contract: dated only where there is a finding.
    const byDate = await call(page, 'photos.list', { sort: 'date', filter: 'all', limit: 100 });
    const clueCounts = new Map<string, number>();
    for (const p of byDate.items) {
      clueCounts.set(p.filename, p.clueCount);
      if (withFinding.has(p.filename)) {
        expect(p.estimateLabel, p.filename).toContain('2');
      } else {
        expect([p.filename, p.estimateStatus, p.estimateEarliest, p.estimateLatest, p.estimateLabel]).toEqual([
          p.filename,
          'undated',
          null,
          null,
          null,
        ]);
      }
    }
    // Sorted by date, the photos with a finding come first; the rest sort as undated.
    expect(new Set(byDate.items.slice(0, withFinding.size).map((p) => p.filename))).toEqual(withFinding);
    const inYears = await call(page, 'photos.list', {
      sort: 'date',
      filter: 'all',
      yearFrom: 1826,
      yearTo: 2100,
      yearMode: 'overlaps',
      limit: 100,
    });
    expect(new Set(inYears.items.map((p) => p.filename))).toEqual(withFinding);
    // The heuristic left clues on the photographs, none on the drawing or the flat graphic.
    expect(clueCounts.get('sepia-look.jpg')).toBeGreaterThan(0);
    expect(clueCounts.get('line-drawing.png')).toBe(0);
    expect(clueCounts.get('blue-rectangle.png')).toBe(0);

    // The grid says so in words.
    const tile = (name: string) => page.getByTestId('photo-tile').filter({ hasText: name });
    await expect(tile('sepia-look.jpg').locator('.tile-date')).toHaveText('undated · 1 weak clue');
    await expect(tile('blue-rectangle.png').locator('.tile-date')).toHaveText('undated');
    await app.shot('trust-grid');

    // The photo screen: undated, the clue named as a clue, the rule written down.
    await tile('sepia-look.jpg').dblclick();
    await expect(page.getByTestId('estimate-dacs')).toHaveText('Undated');
    await expect(page.getByTestId('estimate-clues')).toContainText('1 weak clue');
    await expect(page.getByTestId('evidence-clue')).toContainText('A clue, not a date: visual analysis not yet accepted');
    await expect(page.getByTestId('estimate-explanation')).toContainText('A clue is not a date');
    await app.shot('trust-photo-clue');
    await page.goBack();

    // Exports: no DateCreated for any photo without an accepted finding; the CSV keeps the doubt.
    const { job } = await call(page, 'jobs.enqueue', { type: 'export', payload: { destination: out, formats: ['csv', 'xmp'] } });
    await expect
      .poll(async () => (await call(page, 'jobs.get', { id: job.id })).status, {
        timeout: 60_000,
      })
      .toBe('success');
    const [csvName] = fs.readdirSync(out).filter((f) => f.endsWith('.csv'));
    const csv = fs.readFileSync(path.join(out, csvName), 'utf8');
    expect(csv).toContain('clue, not a date');
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
