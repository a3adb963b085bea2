#!/usr/bin/env node
/** Prints src/main's room → room arrows (`--files`: with the imports that draw them). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainImports, roomArrows } from './lib/import-graph.mjs';

const mainDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main');
const imports = mainImports(mainDir);
for (const [arrow, n] of roomArrows(imports)) {
  console.log(`${arrow}  (${n})`);
  if (process.argv.includes('--files'))
    for (const i of imports.filter((i) => `${i.from} → ${i.to}` === arrow)) console.log(`    ${i.file} → ${i.target}`);
}
