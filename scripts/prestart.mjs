#!/usr/bin/env node
/**
 * Runs before `npm start` / `npm run dev` launch Electron from node_modules: makes sure Electron's
 * own better-sqlite3 exists (ensure-electron-native.mjs) and, on Linux, says how to let Electron's
 * sandbox start where AppArmor would otherwise abort it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOrExit } from './ensure-electron-native.mjs';
import { electronExecutable } from './lib/electron-target.mjs';
import { sandboxAdvice } from './lib/linux-sandbox.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureOrExit();
const executable = electronExecutable(root);
const advice = executable && sandboxAdvice({ executable });
if (advice) console.warn(`\n${advice}\n`);
