import { chooseTarget, chromiumPath, electronBinary } from './target';

export default function globalSetup(): void {
  const { target, note } = chooseTarget();
  const how = target === 'electron' ? `Electron (${electronBinary()})` : `browser mode in Chromium (${chromiumPath()})`;
  console.log(`\n[circa e2e] target: ${how}${note ? `\n[circa e2e] ${note}` : ''}\n`);
}
