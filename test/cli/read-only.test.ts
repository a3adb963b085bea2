/**
 * circa-worker on a library it cannot write, as an archived copy on read-only media is: run the
 * way bin/circa-worker.js runs it (main() called directly), it says why in one line — no stack
 * trace — and `verify-audit` checks the ledger, opening the library read-only. When the tests run
 * as root (whom permissions do not stop), the process runs as `nobody`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { asNobody, readOnlyLibrary } from '../support/read-only-library';

const root = appPaths().root;
const CLI = path.join(root, 'src', 'main', 'cli', 'circa-worker.ts');

/** As bin/circa-worker.js does: `process.exit(await main(argv))`. */
function circaWorker(args: string[]): Promise<{ code: number | null; out: string }> {
  const entry = `const { main } = await import(${JSON.stringify(CLI)}); process.exit(await main(${JSON.stringify(args)}));`;
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', entry], {
      cwd: root,
      env: { ...process.env, CIRCA_DIAGNOSTIC_JOBS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asNobody,
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code) => resolve({ code, out }));
  });
}

describe('circa-worker on a read-only library', () => {
  it('the runner says it is read-only in one line, with no stack trace', async () => {
    const dir = await readOnlyLibrary('folder');
    const r = await circaWorker(['--library', dir, '--once']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`The library at ${dir} is read-only`);
    expect(r.out).not.toMatch(/^\s+at /m);
  }, 120_000);

  it('verify-audit checks the ledger of a read-only copy, writing nothing', async () => {
    const dir = await readOnlyLibrary('folder');
    const before = fs.readdirSync(dir).sort();
    const r = await circaWorker(['verify-audit', '--library', dir]);
    expect(r.out).toMatch(/audit ledger OK: \d+ events verified/);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  }, 120_000);
});
