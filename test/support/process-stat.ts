/**
 * A process's CPU time and nice value from /proc/<pid>/stat (Linux), for benchmarks and specs that
 * say where a machine's CPU went. Null where there is no such process or no /proc.
 */
import fs from 'node:fs';

/** Clock ticks per second in /proc (USER_HZ: 100 on every Linux that Chromium and Node support). */
const TICKS_PER_SECOND = 100;

export function processStat(pid: number | string | undefined): { cpuMs: number; nice: number } | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis (the command may itself hold one): utime and
    // stime are the 12th and 13th, nice the 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
      nice: Number(fields[16]),
    };
  } catch {
    return null; // gone, or not Linux
  }
}
