/**
 * What a native binary is built for, read from the file without loading it: its CPU
 * architecture (ELF, Mach-O or PE header) and, for a Node addon, the NODE_MODULE_VERSION (ABI)
 * it was compiled against. Loading a .node file to find out would need the right runtime — the
 * very thing we are checking — and a wrong one cannot be unloaded.
 *
 * The ABI comes from the addon's registration symbol: a non-N-API addon exports
 * `node_register_module_v<ABI>` (macOS prefixes an underscore), an N-API addon
 * `napi_register_module_v1`, which works under any ABI.
 */
import fs from 'node:fs';

const ELF_MACHINES = { 3: 'ia32', 40: 'arm', 62: 'x64', 183: 'arm64', 243: 'riscv64', 21: 'ppc64', 22: 's390x' };
const MACHO_CPUS = { 0x7: 'ia32', 0x01000007: 'x64', 0xc: 'arm', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x14c: 'ia32', 0x8664: 'x64', 0x1c4: 'arm', 0xaa64: 'arm64' };

function readHead(file, bytes) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The binary's format and architecture(s) in Node's `process.arch` names, or null when the file
 * is not an ELF, Mach-O or PE binary. A universal (fat) Mach-O lists every slice.
 * @returns {{ format: 'elf' | 'macho' | 'pe', arches: string[] } | null}
 */
export function binaryArch(file) {
  const head = readHead(file, 4096);
  if (head.length < 64) return null;
  if (head.readUInt32BE(0) === 0x7f454c46) {
    const little = head[5] === 1;
    const machine = little ? head.readUInt16LE(18) : head.readUInt16BE(18);
    return { format: 'elf', arches: [ELF_MACHINES[machine] ?? `elf-machine-${machine}`] };
  }
  const magicLE = head.readUInt32LE(0);
  if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) {
    const cpu = head.readInt32LE(4);
    return { format: 'macho', arches: [MACHO_CPUS[cpu] ?? `macho-cpu-${cpu}`] };
  }
  if (head.readUInt32BE(0) === 0xcafebabe) {
    const count = head.readUInt32BE(4);
    if (count === 0 || count > 16) return null; // a Java class file shares the magic
    const arches = [];
    for (let i = 0; i < count && 8 + i * 20 + 4 <= head.length; i++) {
      const cpu = head.readInt32BE(8 + i * 20);
      arches.push(MACHO_CPUS[cpu] ?? `macho-cpu-${cpu}`);
    }
    return { format: 'macho', arches };
  }
  if (head[0] === 0x4d && head[1] === 0x5a) {
    const peOffset = head.readUInt32LE(0x3c);
    const pe = peOffset + 6 <= head.length ? head : readHead(file, peOffset + 6);
    if (pe.length < peOffset + 6 || pe.readUInt32BE(peOffset) !== 0x50450000) return null;
    const machine = pe.readUInt16LE(peOffset + 4);
    return { format: 'pe', arches: [PE_MACHINES[machine] ?? `pe-machine-${machine}`] };
  }
  return null;
}

const REGISTER = /(napi|node)_register_module_v(\d+)/g;
const CHUNK = 1 << 20;
const OVERLAP = 64;

/**
 * The NODE_MODULE_VERSION a Node addon was compiled against, 'napi' for an N-API addon, or null
 * when the file carries no registration symbol (not an addon). Scans the file in chunks (symbol
 * tables sit anywhere in it). A binary naming two different ABIs is refused rather than guessed.
 * @returns {number | 'napi' | null}
 */
export function moduleVersion(file) {
  const found = new Set();
  let napi = false;
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK + OVERLAP);
    let carry = 0; // bytes kept from the previous chunk, so a symbol split across chunks is still seen
    let pos = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, carry, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      const len = carry + n;
      for (const m of buf.toString('latin1', 0, len).matchAll(REGISTER)) {
        if (m[1] === 'node') found.add(Number(m[2]));
        else napi = true;
      }
      carry = Math.min(OVERLAP, len);
      buf.copyWithin(0, len - carry, len);
    }
  } finally {
    fs.closeSync(fd);
  }
  if (found.size > 1) throw new Error(`${file} registers for several Node ABIs (${[...found].join(', ')})`);
  if (found.size === 1) return [...found][0];
  return napi ? 'napi' : null;
}
