/**
 * `npm run dev` only: Vite's dev server injects the renderer's CSS as inline <style> elements
 * and talks to its HMR client over a WebSocket, both of which the renderer's strict CSP meta
 * forbids (the app renders unstyled). The served/built app keeps the strict policy: this runs
 * only in Vite's `serve` mode (see electron.vite.config.ts).
 */
export function devContentSecurityPolicy(csp: string): string {
  return csp
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => {
      const [name] = d.split(/\s+/);
      if (name === 'style-src') return `${d} 'unsafe-inline'`;
      if (name === 'connect-src') return `${d} ws://localhost:* ws://127.0.0.1:*`;
      return d;
    })
    .join('; ');
}

/** Rewrites the CSP <meta> of an index.html. */
export function relaxCspMeta(html: string): string {
  return html.replace(
    /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/,
    (_m, pre: string, csp: string, post: string) => pre + devContentSecurityPolicy(csp) + post,
  );
}

/** A Vite plugin applying it in dev only. */
export function devCspPlugin() {
  return {
    name: 'circa-dev-csp',
    apply: 'serve' as const,
    transformIndexHtml: (html: string) => relaxCspMeta(html),
  };
}
