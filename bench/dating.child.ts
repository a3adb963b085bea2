/** The bare OCR loop's worker: one reused tesseract.js engine, recognise each file (see dating.ts). */
import { createOcrEngine } from '../src/worker/ocr';

const engine = createOcrEngine();
// Warm: load the language data before the clock starts.
await engine.recognize(new URL('../resources/tray.png', import.meta.url).pathname).catch(() => undefined);
process.on('message', async (m: { files: string[] }) => {
  for (const f of m.files) await engine.recognize(f);
  process.send!({ done: true });
});
process.send!({ ready: true });
