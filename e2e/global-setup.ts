import { chosenTarget, chromiumPath, electronBinary } from './target';

export default function globalSetup(): void {
  const target = chosenTarget();
  const how = target === 'electron' ? `Electron (${electronBinary()})` : `browser mode in Chromium (${chromiumPath()})`;
  console.log(`\n[circa e2e] target: ${how}\n`);
}
