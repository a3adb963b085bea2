/**
 * Ctrl+Z right after a review undoes that review, even when the photo's history has not been
 * re-read yet. The screen shows a review at once from the call's answer, while "what would undo
 * reverse" (`history.last`) is re-read behind it; undo must not act on the answer it held before
 * the review (main would refuse it: "a later action on this photo comes first", and the finding
 * stays rejected — the 1-in-4 failure of e2e/evidence's undo step on a loaded host).
 *
 * The slow re-read is made certain rather than hoped for: the page's WebSocket is routed through
 * the test, which holds `history.last` answers back until Ctrl+Z has been pressed.
 */
import { test, expect } from './fixtures';
import { importCorpusCopies } from './helpers';
import fs from 'node:fs';

test('Ctrl+Z after a review undoes it while the history is still being re-read', async ({ app }) => {
  test.skip(app.target === 'electron', 'routing the WebSocket needs browser mode; the desktop app talks over IPC');
  const { page } = app;
  let holding = false;
  const held: string[] = [];
  const historyCalls = new Set<number>();
  let toPage: (m: string) => void = () => {};
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    toPage = (m) => ws.send(m);
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { id: number; call: string };
      if (msg.call === 'history.last') historyCalls.add(msg.id);
      server.send(m);
    });
    server.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { kind: string; id?: number };
      if (holding && msg.kind === 'result' && historyCalls.has(msg.id!)) held.push(String(m));
      else ws.send(m);
    });
  });
  await page.reload(); // the token is kept for the tab; the new socket goes through the route

  const dir = await importCorpusCopies(page, app.target, ['Canon_40D.jpg']);
  try {
    const tile = page.getByTestId('photo-tile').filter({ hasText: 'Canon_40D.jpg' });
    await expect(tile).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await tile.dblclick();
    await expect(page.getByRole('heading', { name: 'Canon_40D.jpg' })).toBeVisible();
    const exifItem = page.getByTestId('evidence-item').and(page.locator('[data-source="exif"]')).first();
    await expect(exifItem).toHaveAttribute('data-review', 'pending');

    // Accept it, and let the history catch up: undo would now reverse the acceptance.
    await exifItem.locator('.ev-kind').click();
    await page.keyboard.press('a');
    await expect(exifItem).toHaveAttribute('data-review', 'accepted');
    await expect(page.getByTestId('undo-line')).toContainText(/accept/i);

    // Reject it while the history's re-read is held back, and undo as soon as the screen shows it.
    holding = true;
    await exifItem.locator('.ev-kind').click();
    await page.keyboard.press('r');
    await expect(exifItem).toHaveAttribute('data-review', 'rejected');
    await page.keyboard.press('Control+z');
    holding = false;
    for (const m of held.splice(0)) toPage(m);

    await expect(page.getByRole('status').filter({ hasText: 'Undone' })).toContainText('Undone: Rejected #');
    await expect(exifItem).toHaveAttribute('data-review', 'accepted');
    await expect(page.getByRole('alert')).toHaveCount(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
