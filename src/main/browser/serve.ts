/**
 * `npm run serve`: browser mode. Opens the library with the same core as the app, serves the
 * built renderer on 127.0.0.1 and prints the URL (with its token). The port and token are kept
 * per library, so a restart comes back at the same address (./remembered-address.ts).
 *
 *   node out/main/serve.js [--library DIR] [--port N] [--new-token]
 */
import { parseArgs } from 'node:util';
import { openCore } from '../core/core';
import { CoreHost } from '../core/core-host';
import { forkWorkerSpawner } from '../jobs/fork-worker';
import { resolveLibraryDir } from '../library/paths';
import { appPaths } from '../app-paths';
import { startBrowserServer } from './server';
import { listenAtRememberedAddress } from './remembered-address';

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      library: { type: 'string' },
      port: { type: 'string' },
      'new-token': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  const portArg = values.port ?? process.env.CIRCA_PORT;
  const port = portArg === undefined || portArg === '' ? undefined : Number(portArg);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new Error('--port must be 0..65535');
  const libraryDir = resolveLibraryDir({ argv: values.library ? ['--library', values.library] : [], env: process.env });
  const paths = appPaths();
  const fromSource = import.meta.url.endsWith('.ts');
  const log = {
    info: (m: string) => !values.quiet && console.log(m),
    warn: (m: string) => console.warn(m),
    error: (m: string) => console.error(m),
  };
  const spawn = fromSource
    ? forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx'])
    : forkWorkerSpawner(paths.builtWorkerEntry);
  // Through a CoreHost: a restore replaces the core behind it.
  const host = new CoreHost((overrides) => openCore({ libraryDir, mode: 'browser', spawn, log, ...overrides }), { log });
  const core = host.open();
  const server = await listenAtRememberedAddress({
    file: core.paths.browserAddressFile,
    port,
    newToken: values['new-token'],
    start: (p, token) => startBrowserServer({ core: host, rendererDir: paths.rendererDir, port: p, token, log }),
    log,
  }).catch(async (err: unknown) => {
    await host.close();
    throw err;
  });
  console.log(`Circa (browser mode) — library ${core.paths.dir}`);
  console.log(`Open ${server.url}`);
  let closing = false;
  const shutdown = async (sig: string) => {
    if (closing) return;
    closing = true;
    console.log(`${sig}: shutting down`);
    // Each step is bounded; if one is not, this says which (a restart waits for the exit).
    let step = 'closing the server and its connections';
    const slow = setInterval(() => console.warn(`${sig}: still ${step}`), 10_000);
    slow.unref();
    await server.close();
    step = 'closing the library (stopping jobs, folding the WAL)';
    await host.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
