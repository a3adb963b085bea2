/**
 * Child process of bench/scale.ts: `open <library>` opens the library as the app does (the core,
 * its runner and worker processes) and times openCore → the grid's first page, then exits.
 */
import { openCore } from '../src/main/core/core';
import { pickWorker } from './_queue-support';

const [mode, dir] = process.argv.slice(2);
if (mode === 'open') {
  const t0 = performance.now();
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: pickWorker().spawn });
  const page = await core.dispatch('photos.list', { limit: 200 });
  const ms = performance.now() - t0;
  if (!page.ok) throw new Error(JSON.stringify(page.error));
  process.send!({ ms });
  await core.close(1000);
  process.exit(0);
}
