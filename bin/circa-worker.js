#!/usr/bin/env node
// The headless runner, from the build (npm run build). See src/main/cli/circa-worker.ts.
const { main } = await import('../out/main/circa-worker.js');
process.exit(await main(process.argv.slice(2)));
