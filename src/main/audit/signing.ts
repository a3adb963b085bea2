/**
 * The ledger's signing key and what it signs. The key lives in a file in the library folder,
 * outside the database (see README "The audit ledger"): whoever edits circa.db alone — a SQL
 * tool, a script, a restored or synced copy of the file — cannot produce a valid signature.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';

export const GENESIS_HASH = '0'.repeat(64);

/** The chain head as the signed row in `audit_head` records it. */
export interface ChainHead {
  lastId: number;
  count: number;
  hash: string;
}

// One-shot hashing (Node ≥ 20.12) is ~2× faster than createHash for these short inputs.
export const sha256hex: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => (crypto as unknown as { hash(alg: string, data: string, enc: 'hex'): string }).hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

export function rowHash(
  prevHash: string,
  at: number,
  event: string,
  actor: string,
  jobId: number | null,
  photoId: number | null,
  data: string,
): string {
  return sha256hex(`${prevHash}\n${at}\n${event}\n${actor}\n${jobId ?? ''}\n${photoId ?? ''}\n${data}`);
}

export class AuditKey {
  private constructor(private readonly key: Buffer) {}

  /** The key in `file`, or null when there is none. Throws when the file is not a key. */
  static read(file: string): AuditKey | null {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} is not an audit key (64 hex digits)`);
    return new AuditKey(Buffer.from(text, 'hex'));
  }

  /** Creates the key file, or reads the one another process created a moment earlier. */
  static create(file: string): AuditKey {
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return AuditKey.read(file)!;
  }

  /** A new key in place of a lost or unreadable one (repair-audit only). */
  static replace(file: string): AuditKey {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
    return AuditKey.read(file)!;
  }

  private mac(text: string): string {
    return crypto.createHmac('sha256', this.key).update(text).digest('hex');
  }

  signEvent(id: number, hash: string): string {
    return this.mac(`event\n${id}\n${hash}`);
  }

  signHead(head: ChainHead): string {
    return this.mac(`head\n${head.lastId}\n${head.count}\n${head.hash}`);
  }

  /** Constant-time comparison of a stored signature with the expected one. */
  static same(stored: string | null, expected: string): boolean {
    if (!stored || stored.length !== expected.length) return false;
    return crypto.timingSafeEqual(Buffer.from(stored), Buffer.from(expected));
  }
}
