import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
// The job runtime is generic over job types: it knows no feature room of main (a type's main half
// reaches it through the registry, wired in core).
const notFeature = {
  regex:
    '^(\\.\\./)+(photos|evidence|dating|duplicates|backup|export|media|library|history|settings|browser|cli|core|ipc|electron)(/|$)',
  message: 'src/main/jobs is the runtime: it imports no feature room (job types reach it through the registry).',
};
// The renderer runs sandboxed in a browser page: no Node built-in can load there.
const notNodeBuiltin = {
  regex:
    '^(node:|(fs|path|os|child_process|crypto|worker_threads|net|http|https|url|stream|zlib|util|events|module|process)(/|$))',
  message: 'The renderer runs in a sandboxed page: Node modules cannot load there (ask main through the contract).',
};
const restrict = (paths, patterns) => ['error', { paths, patterns }];

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
  {
    files: ['src/main/jobs/**'],
    ignores: ['src/main/jobs/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict([electron], [notWorker, notRenderer, notFeature]) },
  },
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
