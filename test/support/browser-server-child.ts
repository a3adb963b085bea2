/**
 * A real browser-mode server in its own process, for tests that attack it from outside: a crash
 * must show up as a dead process, and memory as that process's own. Prints one JSON line
 * `{ port, token, pid }` once it listens. With `--hosted`, as `npm run serve` runs it: behind a
 * CoreHost (so it can restore) and running jobs.
 *
 *   node --import tsx test/support/browser-server-child.ts LIBRARY_DIR RENDERER_DIR [--hosted]
 *
 * CIRCA_TEST_LIMITS (JSON): connection limits over the defaults (shorter times for a test).
 * What the server warns about goes to stderr, so a test can wait for it.
 */
import { openCore } from '../../src/main/core/core';
import { CoreHost } from '../../src/main/core/core-host';
import { silentLogger } from '../../src/main/logger';
import { startBrowserServer } from '../../src/main/browser/server';
import { CONNECTION_LIMITS } from '../../src/main/browser/connection-guard';
import { sourceSpawner } from './core';

const [libraryDir, rendererDir, hosted] = process.argv.slice(2);
const spawn = sourceSpawner();
const core =
  hosted === '--hosted'
    ? new CoreHost((overrides) => openCore({ libraryDir, mode: 'browser', spawn, ...overrides }), { log: silentLogger })
    : openCore({ libraryDir, mode: 'browser', spawn, runJobs: false, diagnostics: true });
if (core instanceof CoreHost) core.open();
const limits = { ...CONNECTION_LIMITS, ...JSON.parse(process.env.CIRCA_TEST_LIMITS ?? '{}') };
const log = { info() {}, warn: (m: string) => console.error(m), error: (m: string) => console.error(m) };
const server = await startBrowserServer({ core, rendererDir, limits, log });
process.stdout.write(JSON.stringify({ port: server.port, token: server.token, pid: process.pid }) + '\n');
const stop = () => void server.close().then(() => core.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
