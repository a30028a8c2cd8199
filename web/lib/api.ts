import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { getServerId, SERVER_ID_HEADER } from './session-id.ts';

/** A non-OK answer: message is "{status}: {body text or status text}", as every screen expects. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
  }

  /** The server's `{error}` text when the body is JSON, else the whole message. */
  get serverMessage(): string {
    try {
      const parsed = JSON.parse(this.body) as { error?: unknown };
      if (typeof parsed.error === 'string') return parsed.error;
    } catch {
      // not JSON
    }
    return this.message;
  }
}

/**
 * The HTTP status behind a failed call (looking through `cause`, which getJson's spec texts wrap),
 * or null when no answer came at all (server down, network gone).
 */
export function failedStatus(error: unknown): number | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof ApiError) return current.status;
  }
  return null;
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) throw new ApiError(res.status, (await res.text()) || '', res.statusText);
}

/**
 * Sends a request with credentials; a body goes as JSON. Throws ApiError on a non-OK answer.
 * `headers` adds request headers (e.g. Cache-Control where the spec asks for no-cache).
 */
export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: {
      [SERVER_ID_HEADER]: getServerId(),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * GET `url` as JSON: the one way screens fetch. With `failure`, an error is rethrown as
 * `new Error(failure)` (the screen's spec text) with the server's answer kept as its cause.
 */
export async function getJson<T>(
  url: string,
  options: { failure?: string; headers?: Record<string, string> } = {},
): Promise<T> {
  try {
    return await apiRequest<T>('GET', url, undefined, options.headers);
  } catch (cause) {
    if (options.failure === undefined) throw cause;
    throw new Error(options.failure, { cause });
  }
}

/** The default query function: GET the query-key segments joined by slashes. A 401 is an ordinary error. */
export const defaultQueryFn: QueryFunction = async ({ queryKey }) => apiRequest('GET', queryKey.join('/'));

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}
