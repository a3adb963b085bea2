/**
 * A library Circa cannot write is refused at start with the reason: the headless runner's
 * `--once` and `--exit-when-idle` exit non-zero (they used to start and retry every write for
 * ever), and so does browser mode. Run as a real OS process; when the tests run as root (whom
 * permissions do not stop) the process runs as `nobody`.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { asNobody, readOnlyLibrary } from '../support/read-only-library';

const root = appPaths().root;
function runFor(args: string[], ms = 90_000): Promise<{ code: number | null; out: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: root,
      env: { ...process.env, CIRCA_DIAGNOSTIC_JOBS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asNobody,
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, ms);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, timedOut });
    });
  });
}

const CLI = 'src/main/cli/circa-worker.ts';

describe('a read-only library', () => {
  it.each([
    ['--once', 'folder'],
    ['--once', 'database'],
    ['--exit-when-idle', 'database'],
  ] as const)(
    'circa-worker %s on a read-only %s exits non-zero with the reason',
    async (flag, what) => {
      const dir = await readOnlyLibrary(what);
      const r = await runFor([CLI, '--library', dir, flag]);
      expect(r.timedOut, r.out).toBe(false);
      expect(r.code).not.toBe(0);
      expect(r.out).toContain(`The library at ${dir} is read-only`);
      expect(r.out).not.toMatch(/backing off/);
    },
    120_000,
  );

  it('browser mode refuses it at start with the reason', async () => {
    const dir = await readOnlyLibrary('database');
    const r = await runFor(['src/main/browser/serve.ts', '--library', dir, '--port', '0']);
    expect(r.timedOut, r.out).toBe(false);
    expect(r.code).toBe(1);
    expect(r.out).toContain('is read-only');
  }, 120_000);
});
