/**
 * The desktop app's log: what main's runtime reports (warnings, errors, what it did) also goes to
 * `main.log` in the logs folder that Help → Open the Logs Folder shows, next to the crash
 * reports, so an archivist can send it. An installed app has no terminal to print to. One old file
 * is kept (`main.log.1`) once the log reaches `maxBytes`. Writes are synchronous appends of one
 * line: the log must still hold the last line when the process dies right after it. No electron
 * import: tested under Node.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger';

export const LOG_FILE = 'main.log';

export function fileLogger(
  dir: string,
  opts: { maxBytes?: number; echo?: Logger; now?: () => Date } = {},
): Logger & { file: string } {
  const file = path.join(dir, LOG_FILE);
  const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
  const now = opts.now ?? (() => new Date());
  let size: number | null = null;
  const write = (level: 'info' | 'warn' | 'error', msg: string) => {
    opts.echo?.[level](msg);
    const line = `${now().toISOString()} ${level.toUpperCase()} ${msg.replace(/\r?\n/g, '\n    ')}\n`;
    try {
      if (size === null) {
        fs.mkdirSync(dir, { recursive: true });
        size = fs.existsSync(file) ? fs.statSync(file).size : 0;
      }
      if (size + line.length > maxBytes && size > 0) {
        fs.renameSync(file, `${file}.1`);
        size = 0;
      }
      fs.appendFileSync(file, line);
      size += Buffer.byteLength(line);
    } catch {
      // A log that cannot be written (disk full, folder gone) must never stop Circa.
    }
  };
  return {
    file,
    info: (msg) => write('info', msg),
    warn: (msg) => write('warn', msg),
    error: (msg) => write('error', msg),
  };
}
