/**
 * Machinery errors are the environment failing (database busy or locked, disk full, I/O error),
 * not a job's fault: the runtime backs off and tries again instead of failing jobs over them.
 */
const MACHINERY_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_PROTOCOL',
  'ENOSPC',
  'EMFILE',
  'ENFILE',
  'CIRCA_AUDIT_BROKEN', // the audit ledger refuses appends until repaired (audit/ledger.ts)
]);

export function isMachineryError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return MACHINERY_CODES.has(code) || [...MACHINERY_CODES].some((c) => code.startsWith(c + '_'));
}

export function describeMachineryError(err: unknown): string {
  const code = (err as { code?: string })?.code ?? '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return 'the library database is locked by another process; will retry';
  if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC') return 'the disk is full; free some space and work resumes';
  if (code.startsWith('SQLITE_IOERR')) return 'the disk reported an I/O error; will retry';
  return (err as Error)?.message ?? String(err);
}
