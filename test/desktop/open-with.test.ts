/**
 * "Open with Circa" (src/main/electron/open-with.ts), the crash reports' folder and the log file,
 * under plain Node with real folders: what a launch's arguments ask Circa to import, the question
 * asked, and what the logs folder holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWithQuestion, pathsToOpen } from '../../src/main/electron/open-with';
import { crashReporterOptions, crashReportsDir } from '../../src/main/electron/crash-reports';
import { fileLogger } from '../../src/main/electron/log-file';
import { tempDir } from '../support/core';

describe('Open with Circa', () => {
  it('offers the folders and files a launch names, resolved against its own working folder', () => {
    const cwd = tempDir();
    fs.mkdirSync(path.join(cwd, 'Box 12 (1920s)'));
    fs.writeFileSync(path.join(cwd, 'scan.jpg'), 'x');
    const installed = ['/opt/Circa/circa', 'Box 12 (1920s)', '--library', 'lib', '--no-sandbox', 'missing', 'scan.jpg'];
    expect(pathsToOpen(installed, cwd, false)).toEqual([path.join(cwd, 'Box 12 (1920s)'), path.join(cwd, 'scan.jpg')]);
    // `electron [switches] . [args]` in development (and Playwright's launch): the app folder is not something to import.
    const dev = [
      '/x/electron',
      '--inspect=0',
      '--remote-debugging-port=0',
      '.',
      `file://${encodeURI(path.join(cwd, 'scan.jpg'))}`,
    ];
    expect(pathsToOpen(dev, cwd, true)).toEqual([path.join(cwd, 'scan.jpg')]);
    expect(pathsToOpen(['/x/electron', '--inspect=0', '.', '--library=/tmp/lib'], cwd, true)).toEqual([]);
    expect(pathsToOpen(['/opt/Circa/circa'], cwd, false)).toEqual([]);
  });

  it('asks before importing, naming the folder and saying nothing is copied or changed', () => {
    const dir = path.join(tempDir(), 'Box 12');
    fs.mkdirSync(dir);
    const q = openWithQuestion([dir]);
    expect(q.message).toBe('Import the folder “Box 12” into the library?');
    expect(q.detail).toContain(dir);
    expect(q.detail).toMatch(/nothing is copied or changed/);
    const many = openWithQuestion(Array.from({ length: 7 }, (_, i) => path.join(dir, `${i}.jpg`)));
    expect(many.message).toBe('Import 7 items into the library?');
    expect(many.detail).toContain('… and 2 more');
  });
});

describe('crash reports', () => {
  it('are written under the logs folder and never uploaded', () => {
    expect(crashReporterOptions('0.1.0')).toMatchObject({ uploadToServer: false, productName: 'Circa' });
    expect(crashReportsDir('/home/a/.config/Circa/logs')).toBe(path.join('/home/a/.config/Circa/logs', 'crash-reports'));
  });
});

describe('the log file in the logs folder', () => {
  it('appends one timestamped line per message, keeps one older file, and never throws', () => {
    const dir = path.join(tempDir(), 'logs');
    const echoed: string[] = [];
    const log = fileLogger(dir, {
      maxBytes: 160,
      now: () => new Date('2026-12-03T08:00:00Z'),
      echo: { info: (m) => echoed.push(m), warn: (m) => echoed.push(m), error: (m) => echoed.push(m) },
    });
    log.warn('worker w1 exited (out_of_memory)');
    log.error('closing failed:\ndisk full');
    expect(fs.readFileSync(log.file, 'utf8')).toBe(
      '2026-12-03T08:00:00.000Z WARN worker w1 exited (out_of_memory)\n2026-12-03T08:00:00.000Z ERROR closing failed:\n    disk full\n',
    );
    log.info('a third line that no longer fits');
    expect(fs.readFileSync(`${log.file}.1`, 'utf8')).toContain('disk full');
    expect(fs.readFileSync(log.file, 'utf8')).toBe('2026-12-03T08:00:00.000Z INFO a third line that no longer fits\n');
    expect(echoed).toHaveLength(3);
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'not a folder');
    expect(() => fileLogger(dir).error('still fine')).not.toThrow();
  });
});
