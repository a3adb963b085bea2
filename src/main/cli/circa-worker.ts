/**
 * circa-worker: the headless job runner. Same core as the app, no UI. Several runners (and the
 * app) can share one library: claims are atomic and every write is fenced on its lease.
 *
 *   circa-worker [--library DIR] [--concurrency N] [--max-jobs N] [--once] [--exit-when-idle]
 *   circa-worker verify-audit [--library DIR]   (exit 1 when the ledger is broken)
 *   circa-worker repair-audit [--library DIR]   (records the break in the ledger; appends resume)
 *   circa-worker backup [--library DIR]
 *   circa-worker restore FILE [--library DIR]
 *
 * SIGTERM/SIGINT: stop claiming, let in-flight jobs finish for up to --grace seconds, then
 * release their leases without charging a retry.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openCore } from '../core/core';
import { forkWorkerSpawner } from '../jobs/fork-worker';
import { resolveLibraryDir } from '../library/paths';
import { verifyAuditCommand } from './verify-audit';
import { appPaths } from '../app-paths';
import type { Logger } from '../logger';
import type { AuditLedger } from '../audit/ledger';
import { backupCommand, restoreCommand } from './archive-commands';

const USAGE = `usage: circa-worker [verify-audit | repair-audit | backup | restore FILE] [--library DIR] [--concurrency N] [--max-jobs N] [--once] [--exit-when-idle] [--grace SECONDS]`;

/**
 * Runs a command; what a user can cause (a read-only or missing library, a bad option) is one
 * clear line and exit 1, never a stack trace — bin/circa-worker.js calls this directly.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        library: { type: 'string' },
        concurrency: { type: 'string' },
        'max-jobs': { type: 'string' },
        once: { type: 'boolean', default: false },
        'exit-when-idle': { type: 'boolean', default: false },
        grace: { type: 'string', default: '10' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const int = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
    return n;
  };
  const libraryDir = resolveLibraryDir({ argv: values.library ? ['--library', values.library] : [], env: process.env });
  const log: Logger = values.quiet
    ? { info() {}, warn() {}, error: (m) => console.error(m) }
    : { info: (m) => console.log(m), warn: (m) => console.warn(m), error: (m) => console.error(m) };

  if (positionals[0] === 'verify-audit') return verifyAuditCommand(libraryDir);
  if (positionals[0] === 'repair-audit') {
    const core = openCore({
      libraryDir,
      mode: 'headless',
      spawn: () => {
        throw new Error('no workers');
      },
      runJobs: false,
      log: { ...log, error: () => {} }, // the report below says it once
    });
    try {
      return repairAudit(core.ledger);
    } finally {
      await core.close();
    }
  }
  if (positionals[0] === 'restore') {
    if (positionals.length !== 2) {
      console.error(`restore needs the backup file\n${USAGE}`);
      return 2;
    }
    return restoreCommand({ libraryDir, file: positionals[1], log });
  }
  const paths = appPaths();
  const fromSource = import.meta.url.endsWith('.ts');
  const spawn = fromSource
    ? forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx'])
    : forkWorkerSpawner(paths.builtWorkerEntry);
  if (positionals[0] === 'backup' && positionals.length === 1) return backupCommand({ libraryDir, spawn, log });
  if (positionals.length) {
    console.error(`unknown command ${positionals.join(' ')}\n${USAGE}`);
    return 2;
  }

  const maxJobs = values.once ? 1 : int(values['max-jobs'], 'max-jobs');
  const core = openCore({
    libraryDir,
    mode: 'headless',
    spawn,
    concurrency: int(values.concurrency, 'concurrency'),
    runner: { maxJobs, exitWhenIdle: values.once || values['exit-when-idle'] },
    log,
  });
  log.info(`circa-worker ${core.runner!.runnerId} on ${core.paths.dir}`);
  const graceMs = Number(values.grace) * 1000;
  let signalled = false;
  const stop = (sig: string) => {
    if (signalled) return;
    signalled = true;
    log.info(`${sig}: no new claims; letting running jobs finish for up to ${graceMs / 1000} s`);
    void core.close(graceMs).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  await core.runner!.finished;
  const stats = core.runner!.getStats();
  await core.close(graceMs);
  log.info(`done: ${stats.succeeded} succeeded, ${stats.failed} failed, ${stats.discarded} discarded`);
  return 0;
}

/** Records what is wrong in the ledger itself (audit.reanchored) and lets appends resume. */
function repairAudit(ledger: AuditLedger): number {
  const report = ledger.verify();
  const found = [
    ...(report.brokenAt ? [`event ${report.brokenAt.id}: ${report.brokenAt.reason}`] : []),
    ...report.problems,
    ...(ledger.problem && !report.brokenAt && !report.problems.length ? [ledger.problem] : []),
  ];
  if (!found.length) {
    console.log(`audit ledger OK: ${report.checked} events verified; nothing to repair`);
    return 0;
  }
  ledger.reanchor(found.join('; '));
  console.log(`audit ledger re-anchored; recorded in the ledger as audit.reanchored:\n  ${found.join('\n  ')}`);
  return 0;
}

// Run when started directly (node out/main/circa-worker.js, tsx), not when bin/circa-worker.js imports main().
const isEntry = !!process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
