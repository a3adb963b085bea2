/**
 * Browser mode's /media route: the same lookup as the Electron protocol, behind the run token. An
 * original that changed on disk since it was imported is a 409 saying so, never its bytes; a zoom
 * tile that could not be cut from it a 422 saying why.
 */
import type http from 'node:http';
import {
  isRefusal,
  MEDIA_HEADERS,
  mediaStream,
  parseMediaPath,
  releaseMedia,
  resolveMedia,
  type MediaDeps,
} from '../media/media';

export function mediaRoute(deps: MediaDeps) {
  return async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, authorized: boolean): Promise<boolean> => {
    if (!url.pathname.startsWith('/media/')) return false;
    if (!authorized) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
      return true;
    }
    const parsed = parseMediaPath(url.pathname);
    const media = parsed && (await resolveMedia(deps, parsed));
    if (!media) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return true;
    }
    if (isRefusal(media)) {
      res.writeHead(media.status, { 'content-type': 'text/plain; charset=utf-8' }).end(media.refused);
      return true;
    }
    if (req.headers['if-none-match'] === media.etag) {
      releaseMedia(media);
      res.writeHead(304, { etag: media.etag }).end();
      return true;
    }
    if (req.method === 'HEAD') {
      releaseMedia(media);
      res.writeHead(200, MEDIA_HEADERS(media)).end();
      return true;
    }
    res.writeHead(200, MEDIA_HEADERS(media));
    const body = mediaStream(media);
    body.on('error', () => res.destroy()).pipe(res);
    // A client that goes away mid-stream stops the pipe; the descriptor must close all the same.
    res.on('close', () => body.destroy());
    return true;
  };
}
