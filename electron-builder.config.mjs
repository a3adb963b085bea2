/**
 * Packaging: electron-builder, for Linux (AppImage + deb), macOS (dmg) and Windows (NSIS).
 * `npm run dist` on each OS (with internet: it downloads Electron and the installer tools) —
 * see "Building the installers" in the README.
 *
 * Why electron-builder over Electron Forge: one declarative config covers all four installer
 * formats, `asarUnpack` and `extraResources` say exactly which files live outside the archive,
 * its deb installs the AppArmor profile Ubuntu 24.04 needs and its AppImage falls back when user
 * namespaces are unavailable, and with `electronDist` it packs the app directory fully offline
 * — which is how test/packaging checks this config on a machine that cannot run Electron.
 *
 * Electron's better-sqlite3 is not rebuilt here (`npmRebuild: false`: a rebuild would replace
 * the Node build in node_modules that `npm test` uses). The file scripts/ensure-electron-native.mjs
 * built and verified into .native/ is copied to resources/native/, and afterPack re-reads its
 * ABI and arch so a wrong one can never ship.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryArch, moduleVersion } from './scripts/lib/native-binary.mjs';
import { electronAbi, electronVersion } from './scripts/lib/electron-target.mjs';
import { circaElectronFuses } from './scripts/lib/electron-fuses.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

/** electron-builder's Arch enum, by value. */
const ARCH_NAMES = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

/** Node-module paths that must sit outside app.asar: native code and what it loads by file path. */
export const ASAR_UNPACK = [
  '**/node_modules/sharp/**', // sharp's JS locates its platform package on disk
  '**/node_modules/@img/**', // sharp's .node and libvips, which the .node loads by relative path
  '**/node_modules/tesseract.js/**', // its worker_threads script
  '**/node_modules/tesseract.js-core/**', // the WASM core the worker reads
  '**/node_modules/@tesseract.js-data/**', // each OCR language's traineddata (langPath, or linked from it)
  // ExifTool (XMP sidecars), spawned by exiftool-vendored from app.asar.unpacked (its own
  // ExiftoolPath maps the path): the Perl script with its lib/ on macOS and Linux, and on
  // Windows exiftool.exe with the Perl it carries in exiftool_files/.
  '**/node_modules/exiftool-vendored.pl/**',
  '**/node_modules/exiftool-vendored.exe/**',
];

/**
 * Checks the packed better-sqlite3 binary against the Electron it ships with.
 * @param {string} file
 * @param {{ abi: number, arch: string }} want
 */
export function packedNativeProblem(file, want) {
  if (!fs.existsSync(file)) return `${file} is missing`;
  const abi = moduleVersion(file);
  const info = binaryArch(file);
  if (abi !== want.abi) return `${file} is built for Node ABI ${abi}, but this Electron needs ${want.abi}`;
  if (want.arch !== 'universal' && !info?.arches.includes(want.arch))
    return `${file} is built for ${info?.arches.join('+') ?? 'an unknown CPU'}, but the package is for ${want.arch}`;
  return null;
}

/**
 * @param {{ nativeBinary?: string, expectedAbi?: number, electronDist?: string, output?: string }} [opts]
 *   For the offline layout test: a stand-in native binary (and the ABI it carries), a local
 *   Electron distribution, a scratch output folder. Defaults are what `npm run dist` uses.
 */
export function circaBuildConfig(opts = {}) {
  const version = electronVersion(root);
  const expectedAbi = opts.expectedAbi ?? electronAbi(root, version);
  return {
    appId: 'app.circa.desktop',
    productName: 'Circa',
    executableName: 'circa',
    copyright: 'Circa contributors',
    electronVersion: version,
    ...(opts.electronDist ? { electronDist: opts.electronDist } : {}),
    directories: { output: opts.output ?? 'dist', buildResources: 'resources' },
    // Native modules are never rebuilt into node_modules (see above).
    npmRebuild: false,
    nodeGypRebuild: false,
    buildDependenciesFromSource: false,
    asar: true,
    files: [
      'package.json',
      'out/**',
      '!out/**/*.map',
      'migrations/**',
      'resources/**',
      // better-sqlite3's Node build and its C sources: Electron's build travels in extraResources.
      '!**/node_modules/better-sqlite3/{build,deps,src}/**',
      // Each language's legacy+LSTM model (6–11 MB); OCR uses 4.0.0_best_int (src/worker/ocr/language-data.ts).
      '!**/node_modules/@tesseract.js-data/*/4.0.0/**',
    ],
    asarUnpack: ASAR_UNPACK,
    // Locks the shipped binary down (see scripts/lib/electron-fuses.mjs).
    electronFuses: circaElectronFuses(),
    extraResources: [
      {
        from: opts.nativeBinary ?? `.native/electron-${version}-\${platform}-\${arch}/better_sqlite3.node`,
        to: 'native/better_sqlite3.node',
      },
    ],
    /** @param {{ appOutDir: string, arch: number, packager: { getResourcesDir(appOutDir: string): string } }} context */
    afterPack: async (context) => {
      const file = path.join(context.packager.getResourcesDir(context.appOutDir), 'native', 'better_sqlite3.node');
      const problem = packedNativeProblem(file, { abi: expectedAbi, arch: ARCH_NAMES[context.arch] });
      if (problem) throw new Error(`Refusing to package Circa: ${problem}. Run "node scripts/ensure-electron-native.mjs" first.`);
    },
    linux: {
      target: ['AppImage', 'deb'],
      category: 'Graphics',
      icon: 'resources/icon.png',
      synopsis: 'Date undated historical photographs, with the evidence for each date',
      maintainer: 'Circa contributors <circa@example.org>',
      // "Open with Circa" on a folder in the file manager (the desktop entry passes it as %U).
      mimeTypes: ['inode/directory'],
    },
    // The AppImage's desktop entry passes no --no-sandbox of its own: its AppRun adds the flag only
    // where user namespaces are unavailable (electron-builder's default entry always passed it).
    appImage: { executableArgs: [] },
    // The deb keeps electron-builder's own after-install script: it installs an AppArmor profile
    // granting user namespaces (Ubuntu 24.04) and sets chrome-sandbox's mode to match.
    deb: { packageCategory: 'graphics' },
    mac: {
      target: ['dmg'],
      category: 'public.app-category.productivity',
      icon: 'resources/icon.png',
      // "Open With → Circa" on a folder in the Finder (arrives as the open-file event).
      extendInfo: {
        CFBundleDocumentTypes: [
          {
            CFBundleTypeName: 'Folder',
            CFBundleTypeRole: 'Viewer',
            LSHandlerRank: 'Alternate',
            LSItemContentTypes: ['public.folder'],
          },
        ],
      },
    },
    win: { target: ['nsis'], icon: 'resources/icon.png' },
    // The assisted installer asks "for me only" (no administrator needed, the default) or "for all users".
    nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
    // Releases are drafted by .github/workflows/release.yml from `npm run dist` on each OS; electron-builder publishes nothing.
    publish: null,
  };
}

export default circaBuildConfig();
