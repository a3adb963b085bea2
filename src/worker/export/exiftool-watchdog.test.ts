import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(fn: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(process.platform === 'win32')('the export worker’s ExifTool', () => {
  it('ends when its worker is killed with SIGKILL (one ran on, orphaned, for 8 minutes)', async () => {
    // A stand-in for the export worker: starts the sidecar ExifTool, says its pid, waits.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-exiftool-'));
    const script = path.join(dir, 'worker.mts');
    fs.writeFileSync(
      script,
      `import { sidecarExifTool } from ${JSON.stringify(path.resolve(__dirname, 'xmp-sidecars.ts'))};
       const et = sidecarExifTool();
       await et.version();
       process.stdout.write(JSON.stringify(et.pids) + '\\n');
       setInterval(() => {}, 1000);`,
    );
    const worker = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = '';
      worker.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      worker.once('exit', () => reject(new Error('the worker exited before starting ExifTool')));
    });
    expect(pids).toHaveLength(1);
    const [exiftool] = pids;
    expect(fs.readFileSync(`/proc/${exiftool}/cmdline`, 'utf8')).toMatch(/exiftool/);
    worker.kill('SIGKILL');
    await until(() => !alive(exiftool), 'ExifTool to end after its worker');
  }, 60_000);
});
