/**
 * src/main in floors (scripts/lib/main-floors.mjs): leaves, the runtime, the feature rooms, the
 * composition. Every import must point down, and a feature reaches another only through that
 * room's interface modules. The graph is computed from the imports themselves, so a new file or a
 * new room is checked without anyone listing it here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainImports } from '../../scripts/lib/import-graph.mjs';
import { composition, features, leaves, rooms, runtime } from '../../scripts/lib/main-floors.mjs';

const mainDir = path.join(__dirname, '..', '..', 'src', 'main');
const imports = mainImports(mainDir);
const featureRooms: Record<string, string[]> = features;
const rank = (room: string) => (room.startsWith('(leaf) ') ? -1 : rooms.indexOf(room));
const shown = (i: { file: string; target: string }) => `${i.file} → ${i.target}`;

describe("src/main's floors", () => {
  it('reads a graph with every floor in it', () => {
    const seen = new Set(imports.flatMap((i) => [i.from, i.to]));
    for (const room of [...runtime, 'photos', 'evidence', 'core']) expect(seen).toContain(room);
    expect(imports.length).toBeGreaterThan(100);
  });

  it('puts every room of src/main on a floor, and leaves only the listed top-level files', () => {
    const unplaced = [...new Set(imports.flatMap((i) => [i.from, i.to]))].filter(
      (r) => rank(r) === -1 && !r.startsWith('(leaf) '),
    );
    expect(unplaced).toEqual([]);
    const strayLeaves = [...new Set(imports.map((i) => i.to).filter((r) => r.startsWith('(leaf) ')))].filter(
      (r) => !leaves.includes(r.slice('(leaf) '.length)),
    );
    expect(strayLeaves).toEqual([]);
  });

  it('has no arrow running back up (an import from a room to one on its own level or above)', () => {
    const upward = imports.filter((i) => rank(i.to) >= rank(i.from));
    expect(upward.map(shown)).toEqual([]);
  });

  it('lets a leaf import nothing of main', () => {
    expect(imports.filter((i) => i.from.startsWith('(leaf) ')).map(shown)).toEqual([]);
  });

  it("lets a feature reach another feature only through that room's interface modules", () => {
    const around = imports.filter((i) => {
      const allowed = featureRooms[i.to];
      if (!allowed || !(i.from in featureRooms)) return false;
      return !allowed.includes(path.posix.relative(i.to, i.target));
    });
    expect(around.map(shown)).toEqual([]);
  });

  it('keeps the runtime knowing no feature and no composition', () => {
    const runtimeUp = imports.filter((i) => runtime.includes(i.from) && (i.to in featureRooms || composition.includes(i.to)));
    expect(runtimeUp.map(shown)).toEqual([]);
  });
});
