import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { libraryPaths, resolveLibraryDir } from '../../src/main/library/paths';

describe('library location', () => {
  it('prefers --library, then CIRCA_LIBRARY, then the default', () => {
    expect(resolveLibraryDir({ argv: ['--library', '/a'], env: { CIRCA_LIBRARY: '/b' }, defaultDir: '/c' })).toBe('/a');
    expect(resolveLibraryDir({ argv: ['--library=/a2'], env: {}, defaultDir: '/c' })).toBe('/a2');
    expect(resolveLibraryDir({ argv: [], env: { CIRCA_LIBRARY: '/b' }, defaultDir: '/c' })).toBe('/b');
    expect(resolveLibraryDir({ argv: [], env: {}, defaultDir: '/c' })).toBe('/c');
    expect(resolveLibraryDir({ argv: [], env: { XDG_DATA_HOME: '/x' } })).toBe(path.join('/x', 'Circa', 'Library'));
    expect(() => resolveLibraryDir({ argv: ['--library'], env: {} })).toThrow(/needs a folder/);
  });

  it('lays a library out as a folder', () => {
    const p = libraryPaths('/lib');
    expect(p).toEqual({
      dir: '/lib',
      dbFile: '/lib/circa.db',
      thumbnailsDir: '/lib/thumbnails',
      backupsDir: '/lib/backups',
      auditKeyFile: '/lib/audit.key',
      auditCounterFile: '/lib/audit.counter',
      previewsDir: '/lib/previews',
      browserAddressFile: '/lib/browser.json',
    });
  });
});
