/**
 * Setting up a vision model: the form will not save an Ollama backend without an address and a
 * model (and says which field), "Test connection" asks the backend for real and shows the answer
 * or the failure, a saved message does not outlive the next edit, and with the backend down the
 * photo screen says why its analysis waits. The backend is a stub server on 127.0.0.1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderCaption } from '../test/support/caption-images';
import { closedPort, startAiStub } from '../test/support/ai-stub-server';
import { test, expect } from './fixtures';
import { importFolder } from './helpers';

test('validates the AI backend, tests the connection, and shows why an analysis waits', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = app;
  const stub = await startAiStub();
  const down = `http://127.0.0.1:${await closedPort()}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-ai-e2e-'));
  try {
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expect(page.getByText(/schema \d/)).toHaveCount(0);
    const backend = page.getByRole('combobox', { name: 'Backend' });
    const url = page.getByRole('textbox', { name: 'Server URL' });
    const model = page.getByRole('textbox', { name: 'Model' });
    const save = page.getByRole('button', { name: 'Save settings' });

    // Ollama with nothing filled in is not saved; each field says what it needs.
    await backend.selectOption('ollama');
    await expect(model).toHaveAttribute('placeholder', 'e.g. llava:13b');
    await save.click();
    await expect(page.getByTestId('error-aiBaseUrl')).toHaveText('Enter the server’s address, e.g. http://127.0.0.1:11434');
    await expect(page.getByTestId('error-aiModel')).toHaveText('Enter the model’s name, e.g. llava:13b');
    await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).toBeVisible();
    await app.shot('settings-ai-invalid');

    // The OpenAI-compatible model is not an Ollama one.
    await backend.selectOption('openai-compatible');
    await expect(model).toHaveAttribute('placeholder', 'e.g. gpt-4o-mini');
    await expect(url).toHaveAttribute('placeholder', 'http://127.0.0.1:1234/v1');
    await backend.selectOption('ollama');

    // Typing answers the field's problem; the test asks the backend for real.
    await url.fill(stub.url);
    await expect(page.getByTestId('error-aiBaseUrl')).toHaveCount(0);
    await model.fill('llava:13b');
    const before = stub.requests.length;
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('ai-test-result');
    await expect(result).toContainText('Connected: llava:13b at http://127.0.0.1', { timeout: 60_000 });
    await expect(result).toContainText('with a valid dating reply (1935–1945)');
    expect(stub.requests.length).toBe(before + 1);
    await app.shot('settings-ai-test-ok');

    // Saved, then an edit: "Settings saved" goes (it is no longer true).
    await save.click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
    await page.getByRole('spinbutton', { name: 'Keep finished jobs for (days)' }).fill('20');
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toHaveCount(0);

    // A backend that is down: the test says so at once.
    await url.fill(down);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(result).toContainText(`The test failed: Cannot reach the AI backend at ${down}/api/chat: ECONNREFUSED`, {
      timeout: 60_000,
    });
    await app.shot('settings-ai-test-down');
    // Seen where it happened: no red badge for it on Jobs.
    await expect(page.getByTestId('badge-failed')).toHaveCount(0);
    await save.click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();

    // An analysis with the backend down waits to retry, and the photo screen says why.
    fs.writeFileSync(path.join(dir, 'print.png'), await renderCaption('a print', { background: 'sepia' }));
    await page.getByRole('link', { name: 'Library' }).click();
    const panel = await importFolder(page, app.target, dir);
    await panel.getByRole('button', { name: 'Close the import panel' }).click();
    const tile = page.getByTestId('photo-tile').filter({ hasText: 'print.png' });
    await expect(tile).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await tile.dblclick();
    const aiRow = page.getByTestId('rerun-ai_analysis');
    await aiRow.getByRole('button', { name: 'Run AI analysis' }).click();
    await expect(aiRow).toContainText(/Queued retrying in \d+ s/, { timeout: 30_000 });
    await expect(aiRow.getByTestId('rerun-last-error')).toHaveText(
      `Last try: Cannot reach the AI backend at ${down}/api/chat: ECONNREFUSED`,
    );
    await app.shot('photo-ai-backend-down');
  } finally {
    await stub.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
