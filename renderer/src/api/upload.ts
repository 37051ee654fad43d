import { ApiError, UNREACHABLE, errorOf } from './http.js';

/**
 * POSTs a JSON body already serialized, reporting the bytes sent as they go (fetch cannot report
 * upload progress; XMLHttpRequest can, in a worker too).
 */
export function postWithProgress<T>(
  path: string,
  body: string,
  token: string,
  onProgress: (sent: number, total: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
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
