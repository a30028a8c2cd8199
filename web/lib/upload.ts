import { ApiError } from './api.ts';
import { getServerId, SERVER_ID_HEADER } from './session-id.ts';

export interface UploadOptions {
  /** Called as the request body goes out, with the share sent so far (0 to 1). */
  onProgress?: (fraction: number) => void;
  /** Aborting it cancels the upload; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

/** The upload never reached the server, or its answer never came back. */
export class UploadNetworkError extends Error {
  constructor() {
    super('The upload could not reach the server. Check the connection and try again.');
  }
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled', 'AbortError');
}

/**
 * POSTs `form` as multipart with credentials and the server-id header, like apiRequest, but through
 * XMLHttpRequest: fetch cannot report how much of a request body has been sent, and an upload bar
 * needs exactly that. Resolves the parsed JSON answer (undefined for an empty one); a non-OK answer
 * rejects with the same ApiError as apiRequest, so failure toasts show the server's `{error}`.
 */
export function uploadWithProgress<T = unknown>(
  url: string,
  form: FormData,
  { onProgress, signal }: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const cancel = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', cancel);

    xhr.open('POST', url);
    xhr.withCredentials = true;
    // The browser writes the multipart Content-Type with its boundary itself: set no Content-Type here.
    xhr.setRequestHeader(SERVER_ID_HEADER, getServerId());
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      settle();
      const body = xhr.responseText ?? '';
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, body, xhr.statusText));
        return;
      }
      onProgress?.(1);
      try {
        resolve((body ? JSON.parse(body) : undefined) as T);
      } catch {
        reject(new ApiError(xhr.status, body, 'The server answered with something other than JSON'));
      }
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new UploadNetworkError());
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(abortError());
    });
    signal?.addEventListener('abort', cancel, { once: true });
    onProgress?.(0);
    xhr.send(form);
  });
}

/** True for the rejection of an upload that was cancelled through its signal. */
export function isUploadAborted(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
