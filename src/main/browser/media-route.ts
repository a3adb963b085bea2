/** Images by opaque photo id (issue: photos). Until photos exist, every media request is a 404. */
import type http from 'node:http';
import type { Core } from '../core/core';

export function mediaRoute(_core: Core) {
  return (_req: http.IncomingMessage, res: http.ServerResponse, url: URL, authorized: boolean): boolean => {
    if (!url.pathname.startsWith('/media/')) return false;
    res.writeHead(authorized ? 404 : 401, { 'content-type': 'text/plain' }).end(authorized ? 'Not found' : 'Unauthorized');
    return true;
  };
}
