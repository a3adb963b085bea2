/** Steps shared by the e2e specs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * The shared EXIF/image corpus: beside the checkout (`../shared/corpus`), or, for a git worktree
 * kept in a folder of worktrees, one level further up.
 */
export const CORPUS_DIR =
  ['../shared/corpus', '../../shared/corpus'].map((p) => path.resolve(p)).find((p) => fs.existsSync(p)) ??
  path.resolve('../shared/corpus');

/** The corpus's JPEG folder (exif-samples/jpg). */
export const CORPUS_JPG = path.join(CORPUS_DIR, 'exif-samples/jpg');

/** Imports a folder and waits for the import to finish. Browser mode types the path; the Electron app's dialog cannot be driven, so it calls the bridge. */
export async function importFolder(page: Page, target: string, dir: string): Promise<Locator> {
  const panel = page.getByTestId('import-panel');
  if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Import…' }).click();
  if (target === 'electron') {
    await page.evaluate((p) => window.circa!.call('photos.import', { paths: [p] }), dir);
  } else {
    await panel.getByLabel('Folder or file path on this computer').fill(dir);
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
  }
  await expect(panel.getByTestId('import-progress')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  return panel;
}

/**
 * Copies these corpus files (paths under exif-samples/jpg) into a new folder, imports it from the
 * empty library and closes the panel; returns the folder (the caller removes it).
 */
export async function importCorpusCopies(page: Page, target: string, names: string[]): Promise<string> {
  const corpus = CORPUS_JPG;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-e2e-photos-'));
  for (const name of names) fs.copyFileSync(path.join(corpus, name), path.join(dir, path.basename(name)));
  await page.getByRole('button', { name: 'Import photos…' }).click();
  const panel = await importFolder(page, target, dir);
  await panel.getByRole('button', { name: 'Close the import panel' }).click();
  await expect(page.getByTestId('photo-tile')).toHaveCount(names.length);
  return dir;
}

/** What sticks out past the right edge of `pane` (its own overflow included), as readable lines. */
export async function overflowing(pane: Locator): Promise<string[]> {
  return pane.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    const out: string[] = [];
    if (el.scrollWidth > el.clientWidth + 1) out.push(`the panel scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    for (const child of Array.from(el.querySelectorAll('*'))) {
      const r = child.getBoundingClientRect();
      if (r.width > 0 && r.right > right + 1 && !child.closest('details:not([open])'))
        out.push(`${child.tagName.toLowerCase()}.${child.className} ends at ${Math.round(r.right)} > ${Math.round(right)}`);
    }
    return out;
  });
}

/**
 * How much room an input leaves for `which` of its texts (its value or its placeholder), measured
 * in its own font: negative when the text is clipped. `reserved` is taken off the room (spin buttons).
 */
export async function roomForText(input: Locator, which: 'value' | 'placeholder', reserved = 0): Promise<number> {
  return input.evaluate(
    (el, [key, spare]) => {
      const field = el as HTMLInputElement;
      const style = getComputedStyle(field);
      const probe = document.createElement('span');
      probe.textContent = field[key as 'value' | 'placeholder'];
      probe.style.font = style.font;
      probe.style.letterSpacing = style.letterSpacing;
      probe.style.position = 'absolute';
      probe.style.whiteSpace = 'pre';
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (spare as number);
      return room - needed;
    },
    [which, reserved] as const,
  );
}

/** Opens a photo's screen from the library grid, once its metadata has been read. */
export async function openPhoto(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'Library', exact: true }).click();
  const tile = page.getByTestId('photo-tile').filter({ hasText: name });
  await expect(tile).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await tile.dblclick();
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

/** Runs OCR on the open photo ("Run OCR" for a photo never read, "Re-run OCR" after) and waits for it. */
export async function runOcr(page: Page): Promise<void> {
  const row = page.getByTestId('rerun-ocr');
  await row.getByRole('button', { name: /^(Run|Re-run) OCR$/ }).click();
  await expect(row).toHaveAttribute('data-status', 'success', { timeout: 90_000 });
}
