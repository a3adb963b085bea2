/** Issue 32, item 12: relative paths are refused (not read from the server's folder); file:// URLs and ~ are accepted. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallFailure } from '../../shared/result';
import { importPath, importPaths } from './import-paths';

const HOME = '/home/archivist';

describe('importPath', () => {
  it('keeps an absolute path', () => {
    expect(importPath('/srv/scans/box 3', HOME)).toBe('/srv/scans/box 3');
  });

  it('refuses a relative path, naming the full path it most likely meant', () => {
    for (const typed of ['photos', './photos', '../photos', 'photos/1930']) {
      let err: unknown;
      try {
        importPath(typed, HOME);
      } catch (e) {
        err = e;
      }
      expect(err, typed).toBeInstanceOf(CallFailure);
      expect((err as CallFailure).code).toBe('invalid_input');
      expect((err as Error).message).toContain(`"${typed}" is not a full path`);
      expect((err as Error).message).toContain(path.join(HOME, typed));
    }
  });

  it('reads ~ as the home folder', () => {
    expect(importPath('~', HOME)).toBe(HOME);
    expect(importPath('~/Pictures/Oma', HOME)).toBe('/home/archivist/Pictures/Oma');
  });

  it('accepts file:// URLs, percent-encoding and all', () => {
    expect(importPath('file:///srv/scans/Gro%C3%9Fmutter%20Anna.jpg', HOME)).toBe('/srv/scans/Großmutter Anna.jpg');
    expect(importPath('file://localhost/srv/scans', HOME)).toBe('/srv/scans');
    expect(importPaths(['  file:///a/b  ', '/c'], HOME)).toEqual(['/a/b', '/c']);
  });

  it('refuses a file URL of another computer, and one that is not a URL, each with a reason', () => {
    expect(() => importPath('file://nas/share/scans', HOME)).toThrow(/another computer \(nas\)/);
    expect(() => importPath('file://[', HOME)).toThrow(/not a file URL Circa can read/);
  });
});
