/** Browser mode's /media route: the same lookup as the Electron protocol, behind the run token. */
import fs from 'node:fs';
import type http from 'node:http';
import { MEDIA_HEADERS, parseMediaPath, resolveMedia, type MediaDeps } from '../media/media';

export function mediaRoute(deps: MediaDeps) {
  return (req: http.IncomingMessage, res: http.ServerResponse, url: URL, authorized: boolean): boolean => {
    if (!url.pathname.startsWith('/media/')) return false;
    if (!authorized) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
      return true;
    }
    const parsed = parseMediaPath(url.pathname);
    const media = parsed && resolveMedia(deps, parsed);
    if (!media) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return true;
    }
    if (req.headers['if-none-match'] === media.etag) {
      res.writeHead(304, { etag: media.etag }).end();
      return true;
    }
    res.writeHead(200, MEDIA_HEADERS(media));
    if (req.method === 'HEAD') res.end();
    else
      fs.createReadStream(media.file)
        .on('error', () => res.destroy())
        .pipe(res);
    return true;
  };
}
