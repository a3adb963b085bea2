/**
 * Reading a native binary's ABI and architecture without loading it, and telling which Electron
 * is installed (scripts/lib). Checked against real binaries (this Node, its better-sqlite3 build,
 * sharp's N-API addon) and, for formats this Linux machine has none of, minimal real headers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { binaryArch, moduleVersion } from '../../scripts/lib/native-binary.mjs';
import { electronAbi, electronArch, electronVersion } from '../../scripts/lib/electron-target.mjs';
import { electronAbiOnDisk, nodeBuild } from '../support/native-standin';

const root = appPaths().root;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-binary-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function file(name: string, bytes: Buffer): string {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, bytes);
  return f;
}

function machO(cpu: number): Buffer {
  const b = Buffer.alloc(128);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeInt32LE(cpu, 4);
  return b;
}

describe('moduleVersion', () => {
  it("reads the Node build's NODE_MODULE_VERSION: this Node's ABI", () => {
    expect(moduleVersion(nodeBuild)).toBe(Number(process.versions.modules));
  });

  it('says napi for an N-API addon (sharp), whose ABI does not matter', () => {
    const dir = path.join(root, 'node_modules', '@img', `sharp-${process.platform}-${process.arch}`, 'lib');
    const addon = fs.readdirSync(dir).find((f) => f.endsWith('.node'))!;
    expect(moduleVersion(path.join(dir, addon))).toBe('napi');
  });

  it('says null for a file that is not an addon', () => {
    expect(moduleVersion(path.join(root, 'package.json'))).toBeNull();
  });

  it('finds a symbol that straddles the 1 MiB read boundary, with the macOS underscore', () => {
    const sym = Buffer.from('_node_register_module_v150', 'latin1');
    const f = file('straddle.node', Buffer.concat([Buffer.alloc((1 << 20) - 10), sym, Buffer.alloc(100)]));
    expect(moduleVersion(f)).toBe(150);
  });

  it('refuses a binary that names two ABIs instead of guessing', () => {
    const f = file('two.node', Buffer.from('xx node_register_module_v115 yy node_register_module_v150', 'latin1'));
    expect(() => moduleVersion(f)).toThrow(/several Node ABIs \(115, 150\)/);
  });
});

describe('binaryArch', () => {
  it('reads ELF: this Node and its better-sqlite3 build', () => {
    if (process.platform !== 'linux') return; // the machine this suite targets is Linux (ELF)
    expect(binaryArch(process.execPath)).toEqual({ format: 'elf', arches: [process.arch] });
    expect(binaryArch(nodeBuild)).toEqual({ format: 'elf', arches: [process.arch] });
  });

  it('reads Mach-O, thin and universal', () => {
    expect(binaryArch(file('arm.dylib', machO(0x0100000c)))).toEqual({ format: 'macho', arches: ['arm64'] });
    const fat = Buffer.alloc(128);
    fat.writeUInt32BE(0xcafebabe, 0);
    fat.writeUInt32BE(2, 4);
    fat.writeInt32BE(0x01000007, 8);
    fat.writeInt32BE(0x0100000c, 28);
    expect(binaryArch(file('fat', fat))).toEqual({ format: 'macho', arches: ['x64', 'arm64'] });
  });

  it('reads PE (Windows), including a header past the first 4 KiB', () => {
    const pe = Buffer.alloc(5000);
    pe.write('MZ', 0, 'latin1');
    pe.writeUInt32LE(4200, 0x3c);
    pe.writeUInt32BE(0x50450000, 4200);
    pe.writeUInt16LE(0xaa64, 4204);
    expect(binaryArch(file('arm.exe', pe))).toEqual({ format: 'pe', arches: ['arm64'] });
  });

  it('says null for anything else', () => {
    expect(binaryArch(path.join(root, 'package.json'))).toBeNull();
  });
});

describe('the installed Electron', () => {
  it("takes the ABI from the electron package's abi_version, not from Node", () => {
    expect(electronAbi(root)).toBe(electronAbiOnDisk());
    expect(electronAbi(root)).not.toBe(Number(process.versions.modules));
  });

  it('falls back to node-abi for the version when abi_version is absent', () => {
    const fake = path.join(tmp, 'fake-root');
    fs.mkdirSync(path.join(fake, 'node_modules', 'electron'), { recursive: true });
    fs.writeFileSync(path.join(fake, 'package.json'), '{"name":"fake"}');
    fs.symlinkSync(path.join(root, 'node_modules', 'node-abi'), path.join(fake, 'node_modules', 'node-abi'));
    expect(electronAbi(fake, electronVersion(root))).toBe(electronAbiOnDisk());
  });

  it("takes the arch from Electron's binary, not from Node (x64 Node, arm64 Electron on Apple Silicon)", () => {
    const exe = file('Electron', machO(0x0100000c));
    expect(electronArch(root, { executable: exe, platform: 'darwin', arch: 'x64', env: {}, rosetta: true })).toBe('arm64');
  });

  it("without the binary, makes the installer's choice: arm64 under Rosetta unless npm_config_arch says otherwise", () => {
    const host = { executable: null, platform: 'darwin', arch: 'x64', rosetta: true };
    expect(electronArch(root, { ...host, env: {} })).toBe('arm64');
    expect(electronArch(root, { ...host, env: { npm_config_arch: 'x64' } })).toBe('x64');
    expect(electronArch(root, { executable: null, platform: 'linux', arch: 'x64', env: {} })).toBe('x64');
  });

  it('a universal Electron runs as the native slice', () => {
    const fat = Buffer.alloc(128);
    fat.writeUInt32BE(0xcafebabe, 0);
    fat.writeUInt32BE(2, 4);
    fat.writeInt32BE(0x01000007, 8);
    fat.writeInt32BE(0x0100000c, 28);
    const exe = file('Universal', fat);
    expect(electronArch(root, { executable: exe, platform: 'darwin', arch: 'x64', env: {}, rosetta: true })).toBe('arm64');
    expect(electronArch(root, { executable: exe, platform: 'darwin', arch: 'x64', env: {}, rosetta: false })).toBe('x64');
  });
});
