#!/usr/bin/env node
/**
 * Runs before `npm start` / `npm run dev` launch Electron from node_modules: makes sure Electron's
 * own better-sqlite3 exists (ensure-electron-native.mjs) and, on Linux, says how to let Electron's
 * sandbox start where AppArmor would otherwise abort it — also on the very first start, when the
 * Electron binary is only downloaded by this step.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOrExit } from './ensure-electron-native.mjs';
import { launchSandboxAdvice } from './lib/linux-sandbox.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// First the Electron binary (a first start downloads it here, not later at `electron .`), so the
// native build reads its architecture from it and the sandbox check below sees it.
const advice = launchSandboxAdvice(root);
ensureOrExit();
if (advice) console.warn(`\n${advice}\n`);
