#!/usr/bin/env node
/**
 * Runs before `npm start` / `npm run dev` launch Electron from node_modules: makes sure Electron's
 * own better-sqlite3 exists (ensure-electron-native.mjs) and, on Linux, says how to let Electron's
 * sandbox start where AppArmor would otherwise abort it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensure } from './ensure-electron-native.mjs';
import { electronExecutable } from './lib/electron-target.mjs';
import { sandboxAdvice } from './lib/linux-sandbox.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  const { target, built } = ensure();
  console.log(`${built ? 'Built' : 'Using'} Electron's better-sqlite3: ${path.relative(root, target)}`);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const executable = electronExecutable(root);
const advice = executable && sandboxAdvice({ executable });
if (advice) console.warn(`\n${advice}\n`);
