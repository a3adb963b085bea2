/**
 * A real browser-mode server in its own process, for tests that attack it from outside: a crash
 * must show up as a dead process, and memory as that process's own. Prints one JSON line
 * `{ port, token, pid }` once it listens.
 *
 *   node --import tsx test/support/browser-server-child.ts LIBRARY_DIR RENDERER_DIR
 */
import { openCore } from '../../src/main/core/core';
import { startBrowserServer } from '../../src/main/browser/server';
import { sourceSpawner } from './core';

const [libraryDir, rendererDir] = process.argv.slice(2);
const core = openCore({ libraryDir, mode: 'browser', spawn: sourceSpawner(), runJobs: false, diagnostics: true });
const server = await startBrowserServer({ core, rendererDir });
process.stdout.write(JSON.stringify({ port: server.port, token: server.token, pid: process.pid }) + '\n');
const stop = () => void server.close().then(() => core.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
