/**
 * The baseline of the OCR benchmark (see dating.ts): bare tesseract.js, as a developer would call
 * it — one reused worker, `recognize(file)` on each image as it is, default page segmentation —
 * with none of Circa's preprocessing or retries. Reports each file's text, or its failure.
 */
import Tesseract from 'tesseract.js';
import { defaultLangPath } from '../src/worker/ocr';

const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
  langPath: defaultLangPath(),
  gzip: true,
  cacheMethod: 'none',
});
// Warm: the language data is loaded before the clock starts, as it is in Circa's workers.
await worker.recognize(new URL('../resources/tray.png', import.meta.url).pathname).catch(() => undefined);
process.on('message', async (m: { files: string[] }) => {
  const texts: Record<string, string> = {};
  const failures: Record<string, string> = {};
  const ms: Record<string, number> = {};
  for (const f of m.files) {
    const t0 = performance.now();
    try {
      texts[f] = (await worker.recognize(f)).data.text;
      ms[f] = performance.now() - t0;
    } catch (err) {
      failures[f] = String(err);
    }
  }
  process.send!({ texts, failures, ms });
});
process.send!({ ready: true });
