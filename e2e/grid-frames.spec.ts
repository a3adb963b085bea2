/**
 * Issue 29, item 6: the library grid keeps its frames while a large import runs beside it. A
 * long-task observer in the page records every task over 50 ms while the import adds photos and
 * their metadata is read, and the grid is scrolled all along. The figures are recorded (test
 * annotations and the log), not asserted: wall-clock limits do not belong in tests on a shared
 * machine. CIRCA_FRAMES_PHOTOS sets the import's size (default 1,000; the report used 5,000).
 * CIRCA_FRAMES_TRACE=1 also records a Chromium performance trace and prints what the long tasks
 * were made of (long-task-trace.ts): the functions, modules and timeline events inside them, and
 * per task its wall time against the renderer thread's CPU time (long-task-cpu.ts): how much was
 * the page's own work and how much waiting for a CPU.
 *
 * After the import, the same scrolling runs again for as long with nothing beside it: the control.
 * On Linux each phase also reports where the machine's CPU went, by process (process-cpu.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { watchProcessCpu } from './process-cpu';
import { breakDownLongTasks, bundleModules, TRACE_CATEGORIES } from './long-task-trace';

const PHOTOS = Number(process.env.CIRCA_FRAMES_PHOTOS ?? 1000);
const TRACE = !!process.env.CIRCA_FRAMES_TRACE;

/** Small JPEGs, each its own pattern (a flat colour would leave many encoded alike, as duplicates). */
async function makePhotos(dir: string, n: number): Promise<void> {
  const [width, height] = [96, 72];
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, k) => {
        const j = i + k;
        const pixels = Buffer.alloc(width * height * 3);
        for (let p = 0; p < width * height; p++) {
          const [x, y] = [p % width, Math.floor(p / width)];
          // Stripes whose widths spell the photo's number: no two alike after JPEG encoding.
          const on = ((j >> Math.floor(x / 6)) & 1) === 1;
          pixels.fill(on ? 40 + (y % 8) * 20 : 230, p * 3, p * 3 + 3);
        }
        return sharp(pixels, { raw: { width, height, channels: 3 } })
          .jpeg({ quality: 90 })
          .toFile(path.join(dir, `photo-${String(j).padStart(5, '0')}.jpg`));
      }),
    );
  }
}

/** Scrolls the grid down and up, ten wheel turns each way, until `done` says so. */
async function scrollUntil(page: Page, done: () => Promise<boolean>): Promise<void> {
  let down = true;
  while (true) {
    for (let i = 0; i < 10; i++) {
      await page.mouse.wheel(0, down ? 600 : -600);
      await page.waitForTimeout(50);
    }
    down = !down;
    if (await done()) return;
  }
}

function longTaskFigures(tasks: number[]) {
  return {
    longTasks: tasks.length,
    longest: Math.round(Math.max(0, ...tasks)),
    over100: tasks.filter((d) => d > 100).length,
  };
}

test('the library grid keeps its frames while a large import runs', async ({ app }, testInfo) => {
  test.skip(app.target === 'electron', 'typing paths is browser mode; the Electron dialog cannot be driven');
  test.setTimeout(Math.max(180_000, PHOTOS * 150));
  const { page } = app;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-frames-'));
  try {
    await makePhotos(dir, PHOTOS);
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push(e.duration);
      }).observe({ type: 'longtask' });
      // Which calls the window makes, what their answers weigh and which events it is sent: count,
      // bytes and the largest, by name (one outsized answer is parsed in one task).
      const traffic: Record<string, [number, number, number]> = {};
      (window as unknown as { traffic: typeof traffic }).traffic = traffic;
      const count = (key: string, bytes: number) => {
        const t = (traffic[key] ??= [0, 0, 0]);
        t[0]++;
        t[1] += bytes;
        t[2] = Math.max(t[2], bytes);
      };
      const callById = new Map<number, string>();
      const send = WebSocket.prototype.send;
      const watched = new WeakSet<WebSocket>();
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const request = JSON.parse(data) as { call: string; id: number };
        callById.set(request.id, request.call);
        count(`call ${request.call}`, data.length);
        if (!watched.has(this)) {
          watched.add(this);
          this.addEventListener('message', (e: MessageEvent<string>) => {
            const event = /"event":"([^"]+)"/.exec(e.data)?.[1];
            const id = Number(/^\{"kind":"result","id":(\d+)/.exec(e.data)?.[1]);
            count(event ? `got ${event}` : `answer to ${callById.get(id) ?? 'unknown'}`, e.data.length);
            callById.delete(id);
          });
        }
        return send.call(this, data);
      };
    });

    const browser = page.context().browser();
    if (TRACE && browser) await browser.startTracing(page, { categories: TRACE_CATEGORIES });

    await page.getByRole('button', { name: 'Import photos…' }).click();
    const panel = page.getByTestId('import-panel');
    await panel.getByLabel('Folder or file path on this computer').fill(dir);
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
    const grid = page.getByTestId('photo-grid');
    await expect(page.getByTestId('photo-tile').first()).toBeVisible({ timeout: 60_000 });

    // Scroll the grid back and forth while the import adds photos and their metadata is read.
    await grid.hover();
    const started = Date.now();
    const cpuDuringImport = watchProcessCpu();
    let shotDuringImport = false;
    await scrollUntil(page, async () => {
      const done = (await panel.getByTestId('import-progress').getAttribute('data-status')) === 'done';
      const reading = await panel.getByRole('status').filter({ hasText: 'Still reading' }).count();
      if (done && !reading) return true;
      if (!shotDuringImport) {
        shotDuringImport = true;
        await app.shot('grid-frames-during-import');
      }
      return Date.now() - started > PHOTOS * 120;
    });
    const importSeconds = (Date.now() - started) / 1000;
    const importCpu = cpuDuringImport?.stop();
    await expect(page.getByTestId('photo-count')).toContainText(PHOTOS.toLocaleString('en-US'), { timeout: 60_000 });
    const photos = Number((await page.getByTestId('photo-count').textContent())?.replace(/[^\d]/g, '') || 0);
    const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const traffic = await page.evaluate(
      () => (window as unknown as { traffic: Record<string, [number, number, number]> }).traffic,
    );
    console.log(`[grid frames traffic] ${JSON.stringify(traffic)}`);
    if (TRACE && browser) {
      const trace = (await browser.stopTracing()).toString('utf8');
      fs.writeFileSync(testInfo.outputPath('performance-trace.json'), trace);
      const assets = path.join('out', 'renderer', 'assets');
      const bundle = fs.readdirSync(assets).find((f) => f.endsWith('.js'))!;
      const breakdown = breakDownLongTasks(trace, bundleModules(fs.readFileSync(path.join(assets, bundle), 'utf8')));
      await testInfo.attach('long-task breakdown', { body: JSON.stringify(breakdown, null, 1), contentType: 'application/json' });
      console.log(`[grid frames trace] ${JSON.stringify(breakdown, null, 1)}`);
    }
    const figure = { photos: PHOTOS, listed: photos, seconds: Math.round(importSeconds), ...longTaskFigures(tasks) };
    testInfo.annotations.push({ type: 'long tasks', description: JSON.stringify(figure) });
    console.log(`[grid frames] ${JSON.stringify(figure)}`);
    if (importCpu) console.log(`[grid frames CPU, during the import] ${JSON.stringify(importCpu)}`);

    // The duplicate scan that follows the import: look-alike scans chain into large groups, and the
    // screen gets a part of each it can show (a group listed whole was 16 MB, parsed in one task).
    await page.getByRole('link', { name: /^Duplicates/ }).click();
    await expect(page.getByTestId('dup-scan-state')).toContainText('Last scan:', { timeout: 120_000 });
    await expect(page.getByTestId('dup-group')).toBeVisible();
    await app.shot('grid-frames-duplicates');
    const answers = await page.evaluate(
      () => (window as unknown as { traffic: Record<string, [number, number, number]> }).traffic,
    );
    const largest = Object.entries(answers).filter(([name]) => name.startsWith('answer to '));
    console.log(`[grid frames answers] ${JSON.stringify(Object.fromEntries(largest))}`);
    for (const [name, [, , bytes]] of largest) expect(bytes, name).toBeLessThan(1_000_000);
    await page.getByRole('link', { name: /^Library/ }).click();
    await grid.hover();

    // The control: the same scrolling for as long, with nothing running beside it. Tasks over 50 ms
    // here are the page's and the machine's (Chromium's own compositing included), not the import's.
    await page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks = []));
    const controlStarted = Date.now();
    const cpuAtRest = watchProcessCpu();
    await scrollUntil(page, async () => Date.now() - controlStarted > Math.min(importSeconds, 90) * 1000);
    const restCpu = cpuAtRest?.stop();
    const atRest = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const control = { seconds: Math.round((Date.now() - controlStarted) / 1000), ...longTaskFigures(atRest) };
    testInfo.annotations.push({ type: 'long tasks, nothing running', description: JSON.stringify(control) });
    console.log(`[grid frames, nothing running] ${JSON.stringify(control)}`);
    if (restCpu) console.log(`[grid frames CPU, nothing running] ${JSON.stringify(restCpu)}`);
    expect(photos).toBe(PHOTOS);
    await app.shot('grid-frames-after-import');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
