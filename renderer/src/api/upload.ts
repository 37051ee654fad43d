import { ApiError, UNREACHABLE, errorOf } from './http.js';

/** The error of a request the user cancelled. */
export const CANCELLED = 'Cancelled.';

/**
 * POSTs a JSON body already serialized, reporting the bytes sent as they go (fetch cannot report
 * upload progress; XMLHttpRequest can, in a worker too). `signal` aborts the request: a body cut
 * short is never written by the server (server/http/body.ts drops it when the connection closes).
 */
export function postWithProgress<T>(
  path: string,
  body: string,
  token: string,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    if (signal?.aborted) return reject(new ApiError(0, CANCELLED));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.onabort = () => reject(new ApiError(0, CANCELLED));
    request.open('POST', path);
    request.setRequestHeader('Content-Type', 'application/json');
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    request.onerror = () => reject(new ApiError(0, UNREACHABLE));
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        try {
          resolve(JSON.parse(request.responseText) as T);
        } catch {
          reject(new ApiError(request.status, 'The server sent an answer that is not JSON.'));
        }
      } else reject(errorOf(request.status, request.responseText, request.getResponseHeader('Retry-After')));
    };
    request.send(body);
  });
}
