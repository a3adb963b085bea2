import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { composition, features, runtime } from './scripts/lib/main-floors.mjs';

// The process layers, fenced (see README "Architecture"): main never reaches into a worker's code,
// nothing but main reaches into main, shared depends on no layer, and the renderer gets no Node code.
const electron = { name: 'electron', message: 'Only src/main/electron and src/preload may import electron.' };
const fence = (groups, message) => ({ group: groups, message });
const notMain = fence(['**/main/**', '**/src/main'], 'Only src/main may import src/main (it owns the database and the leases).');
const notWorker = fence(
  ['**/worker/**', '**/src/worker'],
  'src/main and src/shared never import src/worker: a job crosses the process boundary as data.',
);
const notRenderer = fence(['**/renderer/**'], 'Nothing outside the renderer imports it.');
const notNode = fence(['**/shared/node/**'], 'src/shared/node is Node-only code: the renderer cannot load it.');
// The renderer runs sandboxed in a browser page: no Node built-in can load there.
const notNodeBuiltin = {
  regex:
    '^(node:|(fs|path|os|child_process|crypto|worker_threads|net|http|https|url|stream|zlib|util|events|module|process)(/|$))',
  message: 'The renderer runs in a sandboxed page: Node modules cannot load there (ask main through the contract).',
};
const restrict = (paths, patterns) => ['error', { paths, patterns }];

// src/main in floors (scripts/lib/main-floors.mjs; test/architecture/main-floors.test.ts checks the
// whole graph): the runtime knows no feature, a feature no composition room nor a feature above it,
// and reaches a feature below it only through that room's interface modules.
const sibling = (names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;
const featureNames = Object.keys(features);
const runtimeFence = {
  regex: sibling([...featureNames, ...composition]),
  message:
    'The runtime (src/main/' +
    runtime.join(', ') +
    ') is generic: it imports no feature room (job types and calls reach it through their registration).',
};
const featureFences = (room) => {
  const below = featureNames.slice(0, featureNames.indexOf(room));
  const above = featureNames.slice(featureNames.indexOf(room) + 1);
  return [
    {
      regex: sibling([...above, ...composition]),
      message: `src/main/${room} imports no room above it (see scripts/lib/main-floors.mjs).`,
    },
    ...below.map((lower) => ({
      regex: `^(\\.\\./)+${lower}/(?!(${features[lower].join('|')})$)`,
      message: `src/main/${room} reaches ${lower} only through its interface: ${features[lower].join(', ')}.`,
    })),
  ];
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', '.native/**', 'test-results/**', 'playwright-report/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only the thin Electron shell and the preload may import electron: everything else must run under plain Node.
      'no-restricted-imports': restrict([electron], []),
    },
  },
  { files: ['src/main/**'], rules: { 'no-restricted-imports': restrict([electron], [notWorker, notRenderer]) } },
  ...runtime.map((room) => ({
    files: [`src/main/${room}/**`],
    ignores: [`src/main/${room}/**/*.test.ts`],
    rules: { 'no-restricted-imports': restrict([electron], [notWorker, notRenderer, runtimeFence]) },
  })),
  ...featureNames.map((room) => ({
    files: [`src/main/${room}/**`],
    ignores: [`src/main/${room}/**/*.test.ts`],
    rules: { 'no-restricted-imports': restrict([electron], [notWorker, notRenderer, ...featureFences(room)]) },
  })),
  { files: ['src/main/electron/**'], rules: { 'no-restricted-imports': restrict([], [notWorker, notRenderer]) } },
  { files: ['src/worker/**'], rules: { 'no-restricted-imports': restrict([electron], [notMain, notRenderer]) } },
  { files: ['src/shared/**'], rules: { 'no-restricted-imports': restrict([electron], [notMain, notWorker, notRenderer]) } },
  {
    files: ['src/renderer/**'],
    // A renderer module's unit test runs under Node (vitest), not in the page: it may read files.
    ignores: ['src/renderer/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict([electron], [notMain, notWorker, notNode, notNodeBuiltin]) },
  },
  { files: ['src/preload/**'], rules: { 'no-restricted-imports': restrict([], [notMain, notWorker, notRenderer, notNode]) } },
  {
    files: ['src/renderer/**/*.tsx', 'src/renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
