/**
 * The release workflow (.github/workflows/release.yml) parses, runs on a version tag, builds on
 * Windows, macOS and Linux runners with the same `npm run dist` as a local build, drafts the
 * release from what they built, and pins every action to a release version.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';

const root = appPaths().root;
const requireFromRoot = createRequire(path.join(root, 'package.json'));
/** js-yaml as electron-builder itself loads it. */
const yaml = createRequire(requireFromRoot.resolve('app-builder-lib/package.json'))('js-yaml') as { load(text: string): unknown };

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  needs?: string;
  strategy?: { matrix: { include: { os: string; files: string }[] } };
  steps: Step[];
}
const workflow = yaml.load(fs.readFileSync(path.join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  jobs: Record<string, Job>;
};

describe('the release workflow', () => {
  it('runs on a version tag and builds on Windows, macOS (both architectures) and Linux runners', () => {
    expect(workflow.on.push.tags).toEqual(['v*.*.*']);
    const runners = workflow.jobs.installers.strategy!.matrix.include.map((m) => m.os);
    expect(runners.some((os) => os.startsWith('windows-'))).toBe(true);
    expect(runners.filter((os) => os.startsWith('macos-'))).toHaveLength(2);
    expect(runners.some((os) => os.startsWith('ubuntu-'))).toBe(true);
    expect(workflow.jobs.installers['runs-on']).toBe('${{ matrix.os }}');
  });

  it('builds with the documented command and drafts the release from every runner’s installers', () => {
    const runs = workflow.jobs.installers.steps.map((s) => s.run).filter(Boolean);
    expect(runs).toEqual(['npm ci --no-audit --no-fund', 'npm run dist']);
    const files = workflow.jobs.installers.strategy!.matrix.include.map((m) => m.files).join('\n');
    for (const ext of ['.exe', '.dmg', '.AppImage', '.deb']) expect(files).toContain(`*${ext}`);
    const release = workflow.jobs['draft-release'];
    expect(release.needs).toBe('installers');
    const publish = release.steps.find((s) => s.uses?.startsWith('softprops/action-gh-release@'));
    expect(publish?.with).toMatchObject({ draft: true, fail_on_unmatched_files: true });
  });

  it('pins every action to a release version (never a branch or a floating major)', () => {
    const uses = Object.values(workflow.jobs).flatMap((j) => j.steps.map((s) => s.uses).filter((u): u is string => !!u));
    expect(uses.length).toBeGreaterThanOrEqual(5);
    for (const u of uses) expect(u, u).toMatch(/^[\w.-]+\/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/);
  });

  it('builds with a Node that can install Electron 45 (22.12 or newer)', () => {
    const setup = workflow.jobs.installers.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    const [major, minor] = String(setup?.with?.['node-version']).split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 12)).toBe(true);
  });
});
