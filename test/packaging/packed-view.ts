/**
 * The packed app as an installed Circa's processes see it, laid out on disk so plain Node can run
 * it. Electron reads app.asar through its own fs layer: JavaScript loads from inside the archive,
 * but nothing inside it can be executed, spawned or mapped as a library — only files that
 * electron-builder unpacked into app.asar.unpacked are real. The view reproduces exactly that:
 * `resources/app.asar` becomes a directory in which every archived file is written out without
 * an execute bit, and every unpacked file is a symlink into the real `app.asar.unpacked`. Node run
 * with `--preserve-symlinks` then resolves modules by their path inside app.asar (as Electron
 * does), while a binary that was not unpacked cannot be started and a native library's real path
 * (in /proc/self/maps) says where it was loaded from.
 */
import fs from 'node:fs';
import path from 'node:path';
import asar from '@electron/asar';

interface DirRecord {
  files: Record<string, Entry>;
}
type Entry = DirRecord | { link: string } | { size: number; offset?: string; unpacked?: boolean; executable?: boolean };

export interface PackedView {
  /** The view's resources folder (holding the app.asar directory and the app.asar.unpacked link). */
  resources: string;
  /** The view's app root: `<resources>/app.asar`. */
  appRoot: string;
  /** The real unpacked folder beside the real archive. */
  unpackedDir: string;
}

/** Writes the view of `archive` under `dest` (a fresh folder). */
export function buildPackedView(archive: string, dest: string): PackedView {
  const { header, headerSize } = asar.getRawHeader(archive) as unknown as { header: DirRecord; headerSize: number };
  const unpackedDir = `${archive}.unpacked`;
  const resources = path.join(dest, 'resources');
  const appRoot = path.join(resources, 'app.asar');
  fs.mkdirSync(appRoot, { recursive: true });
  fs.symlinkSync(unpackedDir, path.join(resources, 'app.asar.unpacked'));
  const fd = fs.openSync(archive, 'r');
  try {
    const walk = (dir: DirRecord, rel: string) => {
      for (const [name, entry] of Object.entries(dir.files)) {
        const relPath = path.join(rel, name);
        const target = path.join(appRoot, relPath);
        if ('files' in entry) {
          fs.mkdirSync(target, { recursive: true });
          walk(entry, relPath);
        } else if ('link' in entry) {
          fs.symlinkSync(path.relative(path.dirname(relPath), entry.link), target);
        } else if (entry.unpacked) {
          fs.symlinkSync(path.join(unpackedDir, relPath), target);
        } else {
          const data = Buffer.alloc(entry.size);
          if (entry.size) fs.readSync(fd, data, 0, entry.size, 8 + headerSize + Number(entry.offset));
          fs.writeFileSync(target, data, { mode: 0o644 });
        }
      }
    };
    walk(header, '');
  } finally {
    fs.closeSync(fd);
  }
  return { resources, appRoot, unpackedDir };
}

/** Whether `file`'s real path lies inside the real app.asar.unpacked folder. */
export function isUnpacked(view: PackedView, file: string): boolean {
  const real = fs.realpathSync(file);
  return real.startsWith(`${fs.realpathSync(view.unpackedDir)}${path.sep}`);
}
