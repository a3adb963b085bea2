/**
 * Benchmark dispatcher: `npm run bench -- <name> [args…]` runs bench/<name>.ts, which exports
 * `run(args)`. Benchmarks measure; they never fail a build on a figure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const available = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.includes('.child.') && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name> [args…]\navailable: ${available.join(', ') || '(none)'}`);
  process.exit(name ? 2 : 0);
}
const mod = (await import(path.join(here, `${name}.ts`))) as { run(args: string[]): Promise<void> };
await mod.run(args);
// Benchmarks start processes and timers; do not wait for stragglers.
process.exit(0);
