/**
 * Reads a 2 × 120 px black strip as a single text line — input on which Tesseract prints
 * "Image too small to scale!!" to stderr — with a plain tesseract.js worker (`plain`) or with the
 * worker Circa's OCR engine makes (`circa`), so a test can see what reaches the terminal.
 *   node --import tsx test/support/tesseract-chatter-child.ts plain|circa
 */
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { createQuietTesseractWorker, defaultLangPath } from '../../src/worker/ocr/engine';

const which = process.argv[2];
const worker =
  which === 'circa'
    ? await createQuietTesseractWorker(defaultLangPath())
    : await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
        langPath: defaultLangPath(),
        gzip: true,
        cacheMethod: 'none',
      });
await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.SINGLE_LINE });
const strip = await sharp({ create: { width: 2, height: 120, channels: 3, background: '#000' } })
  .png()
  .toBuffer();
const { data } = await worker.recognize(strip);
await worker.terminate();
process.stdout.write(`read ${JSON.stringify(data.text)}\n`);
