/**
 * Electron's fuses for the shipped binary (electron-builder's `electronFuses`, flipped by
 * @electron/fuses just before signing). Fuses are bits compiled into the executable, so what an
 * installer carries cannot be changed by an environment variable or a command-line flag:
 * - runAsNode off: ELECTRON_RUN_AS_NODE cannot turn Circa's binary into a general Node runtime.
 *   Circa never needs it: its workers are utilityProcesses, ExifTool is spawned directly.
 * - NODE_OPTIONS / NODE_EXTRA_CA_CERTS ignored, and `--inspect*` (and SIGUSR1) ignored: nobody can
 *   attach a debugger to, or preload code into, the process that holds the archive's database.
 * - onlyLoadAppFromAsar on: the app is loaded from app.asar alone, never from a planted `app/`.
 * - embedded asar integrity on where Electron implements it (macOS and Windows; electron-builder
 *   writes the header hash into Info.plist or the .exe's resources). Linux has no such check, so
 *   the fuse stays as Electron ships it there. Installers are built on the OS they are for (see
 *   "Building the installers" in the README), so the building platform decides.
 * - file:// gets no extra privileges: the window is served from circa://, never from file://.
 * - macOS: the ad-hoc signature is renewed after flipping, else an unsigned arm64 build is killed.
 */

/** Platforms whose Electron validates app.asar against a hash embedded at build time. */
export const ASAR_INTEGRITY_PLATFORMS = ['darwin', 'win32'];

/** @param {string} [platform] the platform the installers are built for (the building machine's) */
export function circaElectronFuses(platform = process.platform) {
  return {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    onlyLoadAppFromAsar: true,
    ...(ASAR_INTEGRITY_PLATFORMS.includes(platform) ? { enableEmbeddedAsarIntegrityValidation: true } : {}),
    grantFileProtocolExtraPrivileges: false,
    resetAdHocDarwinSignature: platform === 'darwin',
  };
}
