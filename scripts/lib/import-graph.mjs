/**
 * The import graph of src/main by room (its first folder; a top-level file is a leaf): for each
 * arrow, the imports that draw it. Type-only and dynamic imports count: they tie rooms as much.
 * Test files beside the code are left out (a test may reach anywhere it needs).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @returns {{ from: string, to: string, file: string, target: string }[]} one entry per cross-room import */
export function mainImports(mainDir) {
  const out = [];
  const roomOf = (rel) => (rel.includes('/') ? rel.split('/')[0] : `(leaf) ${rel}`);
  for (const rel of fs.readdirSync(mainDir, { recursive: true })) {
    const file = String(rel).split(path.sep).join('/');
    if (!/\.tsx?$/.test(file) || file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(path.join(mainDir, file), 'utf8');
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith('..')) continue; // shared or outside main
      const from = roomOf(file);
      const isFolder = fs.existsSync(path.join(mainDir, target)) && fs.statSync(path.join(mainDir, target)).isDirectory();
      const to = roomOf(isFolder ? `${target}/index.ts` : target.replace(/(\.ts)?$/, '.ts'));
      if (from !== to) out.push({ from, to, file, target });
    }
  }
  return out;
}

/** Room → room arrows with how many imports draw each, sorted. */
export function roomArrows(imports) {
  const counts = new Map();
  for (const i of imports) counts.set(`${i.from} → ${i.to}`, (counts.get(`${i.from} → ${i.to}`) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
}
