/**
 * Keeps packaging from rotting on a machine that cannot launch Electron: packs the app directory
 * with electron-builder and the real config (electron-builder.config.mjs) against a stand-in
 * Electron distribution (`electronDist`: a folder with a placeholder executable, so nothing is
 * downloaded), then checks that every file the app resolves at runtime in packaged mode is in the
 * packed layout — and outside app.asar where native code or a worker thread needs a real file.
 * Presence is not enough (a packed exiftool is present and still cannot be spawned), so the
 * packed tree is then run under Node as an installed app's processes see it (packed-view.ts):
 * ExifTool, sharp, the worker entry with a diagnostic job and an OCR job (tesseract's worker
 * script, WASM core and language data).
 * The native module is the Node build standing in for Electron's (this machine cannot fetch
 * Electron's); afterPack's ABI check is shown to refuse exactly that binary for a real package.
 */
import { execFile, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import asar from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { nativeBinding } from '../../src/main/electron/native';
import { languageDataDir } from '../../src/worker/ocr/language-data';
import { OCR_LANGUAGES } from '../../src/shared/ocr-languages';
import { circaBuildConfig, packedNativeProblem } from '../../electron-builder.config.mjs';
import { circaElectronFuses } from '../../scripts/lib/electron-fuses.mjs';
import { electronAbiOnDisk, nodeBuild } from '../support/native-standin';
import { renderCaption } from '../support/caption-images';
import { buildPackedView, isUnpacked, type PackedView } from './packed-view';

const root = appPaths().root;
const requireFromRoot = createRequire(path.join(root, 'package.json'));
/** @electron/fuses as electron-builder itself loads it (its sentinel lives in dist/constants). */
const requireFuses = createRequire(requireFromRoot.resolve('app-builder-lib/package.json'));
const fuses = {
  ...(requireFuses('@electron/fuses') as {
    FuseV1Options: Record<string, number>;
    getCurrentFuseWire(file: string): Promise<Record<number, number>>;
  }),
  SENTINEL: (requireFuses('@electron/fuses/dist/constants') as { SENTINEL: string }).SENTINEL,
};
/** RunAsNode, CookieEncryption, NodeOptions, CliInspect, AsarIntegrity, OnlyLoadAppFromAsar, V8Snapshot, FileProtocol. */
const ELECTRON_DEFAULT_WIRE = '10110001';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-pack-'));
const appOutDir = path.join(
  tmp,
  'out',
  `${process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : 'linux'}-unpacked`,
);
const resources = path.join(appOutDir, 'resources');
const archive = path.join(resources, 'app.asar');
let packLog = '';
let nodeBuildBefore: fs.Stats;

function run(cmd: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // electron-builder goes silent when it sees VITEST; its log is what shows nothing was downloaded.
    const { VITEST: _vitest, ...env } = process.env;
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, CI: 'true' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => (packLog += d.toString()));
    child.stderr.on('data', (d: Buffer) => (packLog += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(args[0] ?? cmd)} failed (${code ?? signal}):\n${packLog}`));
    });
  });
}

beforeAll(async () => {
  if (process.platform !== 'linux') return;
  // The layout needs the built app; `npm test` builds before the unit tests, a lone run builds here.
  if (!fs.existsSync(path.join(root, 'out', 'main', 'electron.js')))
    await run(
      process.execPath,
      [path.join(path.dirname(requireFromRoot.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js'), 'build'],
      300_000,
    );
  const dist = path.join(tmp, 'electron-dist');
  fs.mkdirSync(dist);
  // The stand-in carries a fuse wire laid out as Electron's (sentinel, version 1, length, one
  // byte per fuse, set as Electron 45 ships them), so electron-builder flips its fuses for real.
  const standIn = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in for the Electron executable"\nexit 0\n# '),
    Buffer.from(fuses.SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(ELECTRON_DEFAULT_WIRE),
    Buffer.from('\n'),
  ]);
  fs.writeFileSync(path.join(dist, 'electron'), standIn, { mode: 0o755 });
  const config = path.join(tmp, 'electron-builder.test.mjs');
  const opts = {
    nativeBinary: nodeBuild,
    expectedAbi: Number(process.versions.modules),
    electronDist: dist,
    output: path.join(tmp, 'out'),
  };
  fs.writeFileSync(
    config,
    `import { circaBuildConfig } from ${JSON.stringify(path.join(root, 'electron-builder.config.mjs'))};\n` +
      `export default circaBuildConfig(${JSON.stringify(opts)});\n`,
  );
  nodeBuildBefore = fs.statSync(nodeBuild);
  const cli = requireFromRoot.resolve('electron-builder/cli.js');
  // ~30 s on a quiet machine; the kill timer only guards against a hang on a crowded one.
  await run(process.execPath, [cli, '--dir', '--linux', `--${process.arch}`, '--config', config, '--publish', 'never'], 480_000);
}, 600_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const files = () => new Set(asar.listPackage(archive, { isPack: false }).map((f) => f.replace(/\\/g, '/').replace(/^\//, '')));

/** Asserts `rel` (a path inside the app) is packed, and whether it must be a real file outside the archive. */
function expectPacked(rel: string, where: 'asar' | 'unpacked') {
  const posix = rel.split(path.sep).join('/');
  expect(files().has(posix), `${posix} is in app.asar`).toBe(true);
  const stat = asar.statFile(archive, posix) as { unpacked?: boolean };
  if (where === 'unpacked') {
    expect(stat.unpacked, `${posix} is unpacked`).toBe(true);
    expect(fs.existsSync(path.join(`${archive}.unpacked`, rel)), `${posix} exists in app.asar.unpacked`).toBe(true);
  }
}

/** A file resolved in this checkout, as the packaged app resolves it (relative to the app root). */
const inApp = (abs: string) => path.relative(root, abs);

describe.runIf(process.platform === 'linux')('the packed app (electron-builder --dir, offline)', () => {
  it('packs offline, and leaves the Node build of better-sqlite3 in node_modules untouched', () => {
    expect(packLog).toContain('using custom unpacked Electron distribution');
    expect(packLog).not.toMatch(/downloading/i);
    const after = fs.statSync(nodeBuild);
    expect([after.size, after.mtimeMs]).toEqual([nodeBuildBefore.size, nodeBuildBefore.mtimeMs]);
  });

  it('holds the entry points appPaths() resolves: package.json named circa, main, preload, renderer, worker', () => {
    const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString());
    expect([pkg.name, pkg.type]).toEqual(['circa', 'module']);
    const paths = appPaths();
    for (const file of [path.join(root, pkg.main), paths.builtWorkerEntry, path.join(paths.rendererDir, 'index.html')])
      expectPacked(inApp(file), 'asar');
    expectPacked(path.join('out', 'preload', 'index.cjs'), 'asar');
    for (const asset of fs.readdirSync(path.join(paths.rendererDir, 'assets')))
      expectPacked(path.join('out', 'renderer', 'assets', asset), 'asar');
  });

  it('holds every migration the journal names', () => {
    const journal = JSON.parse(fs.readFileSync(path.join(appPaths().migrations, 'meta', '_journal.json'), 'utf8'));
    expectPacked(path.join('migrations', 'meta', '_journal.json'), 'asar');
    for (const entry of journal.entries as { tag: string }[]) expectPacked(path.join('migrations', `${entry.tag}.sql`), 'asar');
  });

  it('holds the window and tray icons, including the macOS template image', () => {
    for (const icon of ['icon.png', 'tray.png', 'trayTemplate.png', 'trayTemplate@2x.png'])
      expectPacked(path.join('resources', icon), 'asar');
  });

  it("puts Electron's better-sqlite3 where the installed app looks for it, outside the archive, and no Node build inside", () => {
    const { file } = nativeBinding({ isPackaged: true, resourcesPath: resources, appRoot: archive });
    expect(fs.readFileSync(file).equals(fs.readFileSync(nodeBuild))).toBe(true);
    expectPacked(inApp(requireFromRoot.resolve('better-sqlite3')), 'asar');
    expect([...files()].filter((f) => f.startsWith('node_modules/better-sqlite3/build'))).toEqual([]);
  });

  it("unpacks sharp's addon and libvips (loaded by file path)", () => {
    const plat = `${process.platform}-${process.arch}`;
    const addonDir = path.join(root, 'node_modules', '@img', `sharp-${plat}`, 'lib');
    const vipsDir = path.join(root, 'node_modules', '@img', `sharp-libvips-${plat}`, 'lib');
    const addons = fs.readdirSync(addonDir).filter((f) => f.endsWith('.node'));
    const vips = fs.readdirSync(vipsDir).filter((f) => f.startsWith('libvips'));
    expect(addons.length * vips.length).toBeGreaterThan(0);
    for (const f of addons) expectPacked(inApp(path.join(addonDir, f)), 'unpacked');
    for (const f of vips) expectPacked(inApp(path.join(vipsDir, f)), 'unpacked');
    expectPacked(inApp(requireFromRoot.resolve('sharp')), 'unpacked');
  });

  it("unpacks tesseract.js's worker script, its WASM cores and every language's data OCR loads (and no legacy model)", () => {
    const tesseract = path.dirname(requireFromRoot.resolve('tesseract.js/package.json'));
    expectPacked(inApp(path.join(tesseract, 'src', 'worker-script', 'node', 'index.js')), 'unpacked');
    const core = path.dirname(requireFromRoot.resolve('tesseract.js-core/package.json'));
    const cores = fs.readdirSync(core).filter((f) => f.startsWith('tesseract-core'));
    expect(cores.length).toBeGreaterThan(0);
    for (const f of cores) expectPacked(inApp(path.join(core, f)), 'unpacked');
    for (const lang of OCR_LANGUAGES) expectPacked(inApp(path.join(languageDataDir(lang), `${lang}.traineddata.gz`)), 'unpacked');
    expect([...files()].filter((f) => /@tesseract\.js-data\/\w+\/4\.0\.0\//.test(f))).toEqual([]);
  });

  it('holds every package the built main and worker import', () => {
    const packed = files();
    const outMain = path.join(root, 'out', 'main');
    const sources = fs
      .readdirSync(outMain, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => fs.readFileSync(path.join(outMain, f), 'utf8'))
      .join('\n');
    const specifiers = new Set<string>();
    for (const m of sources.matchAll(
      /(?:from\s*|import\s*\(\s*|require\s*\(\s*|\.resolve\s*\(\s*|import\s+)["']([^"'./][^"']*)["']/g,
    )) {
      const spec = m[1];
      // The pattern also meets prose in strings ("restored from '${root}'"): only a package name counts.
      if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w.@-]+)*$/i.test(spec)) continue;
      if (spec.startsWith('node:') || spec === 'electron' || (!spec.includes('/') && requireFromRoot('module').isBuiltin(spec)))
        continue;
      const parts = spec.split('/');
      specifiers.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
    expect(specifiers.size).toBeGreaterThan(5);
    const missing = [...specifiers].filter((pkg) => !packed.has(`node_modules/${pkg}/package.json`));
    expect(missing).toEqual([]);
  });

  it('refuses, after packing, a native binary built for the wrong ABI (what the real config expects)', async () => {
    const real = circaBuildConfig();
    const context = { appOutDir, arch: 1, packager: { getResourcesDir: (d: string) => path.join(d, 'resources') } };
    await expect(real.afterPack(context)).rejects.toThrow(
      new RegExp(
        `Refusing to package Circa: .*Node ABI ${process.versions.modules}, but this Electron needs ${electronAbiOnDisk()}`,
      ),
    );
    expect(packedNativeProblem(nodeBuild, { abi: Number(process.versions.modules), arch: 'arm64' })).toMatch(/built for x64/);
  });

  it('locks the packed binary down: electron-builder flipped its fuses (read back from the executable)', async () => {
    const wire = await fuses.getCurrentFuseWire(path.join(appOutDir, 'circa'));
    const state = (name: string) => String.fromCharCode(wire[fuses.FuseV1Options[name]]);
    expect(state('RunAsNode')).toBe('0');
    expect(state('EnableNodeOptionsEnvironmentVariable')).toBe('0');
    expect(state('EnableNodeCliInspectArguments')).toBe('0');
    expect(state('OnlyLoadAppFromAsar')).toBe('1');
    expect(state('GrantFileProtocolExtraPrivileges')).toBe('0');
    // Linux has no embedded asar integrity check: left as Electron ships it; macOS and Windows turn it on.
    expect(state('EnableEmbeddedAsarIntegrityValidation')).toBe(ELECTRON_DEFAULT_WIRE[4]);
    for (const platform of ['darwin', 'win32'])
      expect(circaElectronFuses(platform)).toMatchObject({ enableEmbeddedAsarIntegrityValidation: true, runAsNode: false });
    expect(circaElectronFuses('darwin').resetAdHocDarwinSignature).toBe(true);
  });

  it("keeps electron-builder's Ubuntu 24.04 handling: the deb installs an AppArmor profile, the AppImage falls back", async () => {
    const config = circaBuildConfig();
    expect(config.deb).not.toHaveProperty('afterInstall');
    expect(config.linux).not.toHaveProperty('executableArgs');
    // The AppImage's desktop entry no longer forces --no-sandbox; its AppRun adds it only without user namespaces.
    expect(config.appImage.executableArgs).toEqual([]);
    const appImageUtil = requireFromRoot(
      path.join(
        path.dirname(requireFromRoot.resolve('app-builder-lib/package.json')),
        'out',
        'targets',
        'appimage',
        'appImageUtil.js',
      ),
    ) as { generateAppRunScript(c: object): string };
    const appRun = appImageUtil.generateAppRunScript({ ProductName: 'Circa', ProductFilename: 'Circa', ExecutableName: 'circa' });
    expect(appRun).toMatch(
      /if \[ \$HAVE_NO_SANDBOX -eq 0 \] && ! unshare -Ur true 2>\/dev\/null ; then\s+NO_SANDBOX=\(--no-sandbox\)/,
    );
    const templates = path.join(path.dirname(requireFromRoot.resolve('app-builder-lib/package.json')), 'templates', 'linux');
    expect(fs.readFileSync(path.join(templates, 'after-install.tpl'), 'utf8')).toContain('apparmor_parser --replace');
    expect(fs.readFileSync(path.join(templates, 'apparmor-profile.tpl'), 'utf8')).toContain('userns,');
  });
});

/** Runs packed-probe.mjs against the view: Node resolving modules by their path inside app.asar. */
function probe(view: PackedView, what: string, arg?: string): Promise<Record<string, unknown>> {
  const script = path.join(root, 'test', 'packaging', 'packed-probe.mjs');
  const args = ['--preserve-symlinks', script, view.appRoot, what, ...(arg ? [arg] : [])];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 120_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const line = String(stdout).trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as Record<string, unknown>);
      } catch {
        reject(new Error(`probe ${what} printed no result (${err?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** Starts the packed worker entry under Node and runs `jobs` through it, as main does. */
async function runPackedWorker(view: PackedView, jobs: { jobId: number; type: string; input: unknown }[]) {
  const child = fork(path.join(view.appRoot, 'out', 'main', 'worker.js'), [], {
    execArgv: ['--preserve-symlinks', '--preserve-symlinks-main'],
    env: { ...process.env, CIRCA_DIAGNOSTIC_JOBS: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const results = new Map<number, { ok: boolean; output?: unknown; error?: unknown }>();
  let ready: { pid: number; types: string[] } | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the packed worker did not answer in time:\n${stderr}`)), 180_000);
      child.on('exit', (code) => reject(new Error(`the packed worker exited (${code}):\n${stderr}`)));
      child.on('message', (raw) => {
        type Result = { jobId: number; ok: boolean; output?: unknown; error?: unknown };
        const msg = raw as Result & { t: string; pid: number; types: string[]; results?: Result[] };
        if (msg.t === 'ready') {
          ready = { pid: msg.pid, types: msg.types };
          child.send({ t: 'run', jobs: jobs.map((j) => ({ ...j, attempt: 1 })) });
        }
        for (const r of msg.t === 'results' ? msg.results! : msg.t === 'result' ? [msg] : []) results.set(r.jobId, r);
        if (results.size === jobs.length) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } finally {
    child.kill();
  }
  return { ready: ready as { pid: number; types: string[] } | null, results };
}

describe.runIf(process.platform === 'linux')('the packed app, run (under Node, as its processes see the tree)', () => {
  let view: PackedView;
  beforeAll(() => {
    view = buildPackedView(archive, path.join(tmp, 'view'));
  });

  it("runs the packed ExifTool from app.asar.unpacked, found by exiftool-vendored's own lookup (XMP export)", async () => {
    const out = await probe(view, 'exiftool');
    expect(out.error ?? null).toBeNull();
    expect(isUnpacked(view, String(out.file)), `${out.file} is in app.asar.unpacked`).toBe(true);
    const vendored = JSON.parse(fs.readFileSync(requireFromRoot.resolve('exiftool-vendored.pl/package.json'), 'utf8'));
    expect(out.ver).toBe(vendored.version.split('.').slice(0, 2).join('.'));
    expect(out.viaLibrary).toBe(out.ver);
  });

  it('unpacks the Windows ExifTool too (exiftool-vendored.exe: the .exe and the Perl it carries)', () => {
    const minimatch = createRequire(requireFromRoot.resolve('app-builder-lib/package.json'))('minimatch') as {
      minimatch: (p: string, pattern: string, o?: object) => boolean;
    };
    const unpack = circaBuildConfig().asarUnpack as string[];
    for (const file of [
      'node_modules/exiftool-vendored.exe/bin/exiftool.exe',
      'node_modules/exiftool-vendored.exe/bin/exiftool_files/perl.exe',
      'node_modules/exiftool-vendored.exe/bin/exiftool_files/lib/Image/ExifTool.pm',
      'node_modules/exiftool-vendored.pl/bin/exiftool',
    ])
      expect(
        unpack.some((p) => minimatch.minimatch(file, p, { dot: true })),
        `${file} is unpacked`,
      ).toBe(true);
  });

  it('loads sharp from the packed tree, with its addon and libvips mapped from app.asar.unpacked, and resizes a photo', async () => {
    const image = path.join(tmp, 'caption.png');
    fs.writeFileSync(image, await renderCaption('Circa 1923'));
    const out = await probe(view, 'sharp', image);
    expect(out.error ?? null).toBeNull();
    expect(out.info).toMatchObject({ width: 64, format: 'png' });
    expect(out.decoded).toMatchObject({ width: 64 });
    const mapped = out.mapped as string[];
    expect(mapped.some((f) => /sharp-.*\.node$/.test(f))).toBe(true);
    expect(mapped.some((f) => /libvips/.test(f))).toBe(true);
    for (const f of mapped) expect(isUnpacked(view, f), `${f} was loaded from app.asar.unpacked`).toBe(true);
  });

  it('starts the packed worker entry, which answers a diagnostic job and reads a caption with the packed tesseract and its data', async () => {
    const caption = path.join(tmp, 'packed-ocr.png');
    fs.writeFileSync(caption, await renderCaption('Taken June 1923', { size: 48 }));
    const french = path.join(tmp, 'packed-ocr-fra.png');
    fs.writeFileSync(french, await renderCaption('Fête de Noël, août 1947', { size: 40 }));
    const { ready, results } = await runPackedWorker(view, [
      { jobId: 1, type: 'diag.noop', input: {} },
      { jobId: 2, type: 'ocr', input: { path: caption } },
      // A second language: its data is linked with English's into one folder tesseract reads.
      { jobId: 3, type: 'ocr', input: { path: french, languages: ['eng', 'fra'] } },
    ]);
    expect(ready?.types).toEqual(expect.arrayContaining(['diag.noop', 'ocr', 'export']));
    expect(results.get(1)).toMatchObject({ ok: true, output: { pid: ready?.pid } });
    const ocr = results.get(2) as { ok: boolean; output?: { text: string }; error?: unknown };
    expect(ocr.error ?? null).toBeNull();
    expect(ocr.output?.text).toMatch(/June\s+1923/);
    const fra = results.get(3) as { ok: boolean; output?: { text: string }; error?: unknown };
    expect(fra.error ?? null).toBeNull();
    expect(fra.output?.text).toContain('août 1947');
  });
});
