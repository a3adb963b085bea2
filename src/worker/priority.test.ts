/**
 * A worker, and the import benchmark's loops, run WORKER_NICENESS below the priority they were
 * started with: checked in a real child process, whose priority this test's own never changes.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKER_NICENESS } from './priority';

describe('lowerWorkerPriority', () => {
  it('lowers the calling process by WORKER_NICENESS, no further than 19', () => {
    const module = path.join(__dirname, 'priority.ts');
    const script = `const { lowerWorkerPriority } = await import(${JSON.stringify(module)}); const os = await import('node:os'); const before = os.getPriority(); lowerWorkerPriority(); console.log(JSON.stringify([before, os.getPriority()]));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const [before, after] = JSON.parse(out.trim()) as [number, number];
    expect(before).toBe(os.getPriority());
    expect(after).toBe(Math.min(19, before + WORKER_NICENESS));
  });
});
