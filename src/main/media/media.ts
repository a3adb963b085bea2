/** Images by opaque photo id (issue: photos). Until photos exist every media request is a 404. */
import type { Core } from '../core/core';

export async function serveMedia(_core: Core, _url: URL): Promise<Response> {
  return new Response('Not found', { status: 404 });
}
