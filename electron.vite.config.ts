import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { devCspPlugin } from './src/main/electron/dev-csp';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          // The Electron shell (the only entry that imports electron)…
          electron: resolve(__dirname, 'src/main/electron/main.ts'),
          // …and the plain-Node entries sharing the same core.
          serve: resolve(__dirname, 'src/main/browser/serve.ts'),
          'circa-worker': resolve(__dirname, 'src/main/cli/circa-worker.ts'),
          worker: resolve(__dirname, 'src/worker/index.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require nothing but electron: bundle its dependencies (zod).
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // Sandboxed preloads cannot be ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html') },
    },
    // devCspPlugin: `npm run dev` only — Vite's inline dev styles and HMR socket need a looser CSP.
    plugins: [react(), devCspPlugin()],
  },
});
