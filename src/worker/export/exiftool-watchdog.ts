/**
 * ExifTool lives no longer than the worker that started it. exiftool-vendored runs it with
 * `-stay_open True -@ -`, which keeps reading its argument stream after end-of-file: when the
 * worker is killed (kill -9, a cancelled export's grace running out), the pipe closes and ExifTool
 * carries on, orphaned (one was seen still running 8 minutes on). So it is started through a small
 * shell that leaves a watchdog behind and then becomes ExifTool (exec keeps the process id): once a
 * second the watchdog checks that the worker is alive, and when it is not, it ends ExifTool.
 * Windows has no such shell; there the pipe's end is all there is.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

// $1: the worker's pid; the rest: the command. In the ( … ) subshell $$ is still the outer shell,
// which exec turns into ExifTool itself.
const WATCHDOG =
  'worker=$1; shift; ' +
  '( while kill -0 "$worker" 2>/dev/null && kill -0 $$ 2>/dev/null; do sleep 1; done; kill $$ 2>/dev/null ) ' +
  '</dev/null >/dev/null 2>&1 & ' +
  'exec "$@"';

export function spawnTiedToThisProcess(command: string, args: readonly string[], opts: SpawnOptions): ChildProcess {
  if (process.platform === 'win32') return spawn(command, args, opts);
  return spawn('/bin/sh', ['-c', WATCHDOG, 'circa-exiftool', String(process.pid), command, ...args], opts);
}
