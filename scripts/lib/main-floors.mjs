/**
 * The floors of src/main, lowest first: an import may only point down. Read by eslint.config.js
 * (each import fenced where it is written) and by test/architecture/main-floors.test.ts (the whole
 * room graph, drawn by scripts/main-graph.mjs).
 *  - leaves: top-level modules everyone may import (they import nothing of main's);
 *  - runtime: the library's folders, the database, the ledger, the job runtime and the IPC
 *    dispatcher: generic over job types, knowing no feature;
 *  - features: each room reaches a lower one only through that room's interface modules (listed);
 *  - composition: what wires the features onto the runtime and serves it (core, the shells).
 */
export const leaves = ['app-paths.ts', 'app-version.ts', 'logger.ts', 'shell-hooks.ts'];

export const runtime = ['library', 'db', 'audit', 'jobs', 'ipc'];

/** Lowest first; each room with the modules other features may import (its one-way interface). */
export const features = {
  settings: ['settings'],
  catalogue: ['photo-repository', 'photo-listing'],
  history: ['action-log'],
  evidence: ['evidence-store'],
  media: ['pyramid-files', 'viewer'],
  duplicates: ['photo-hash-store'],
  photos: [],
  dating: [],
  export: [],
  backup: [],
};

export const composition = ['core', 'browser', 'cli', 'electron'];

/** Every room, lowest first (the leaves are not rooms: they sit below all of them). */
export const rooms = [...runtime, ...Object.keys(features), ...composition];
