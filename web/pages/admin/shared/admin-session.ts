import { hashKey, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { apiRequest, failedStatus } from '@/lib/api.ts';
import { getServerId, SERVER_ID_HEADER } from '@/lib/session-id.ts';
import { LOGIN_TEXTS } from '../../../../common/auth-texts.ts';
import type { DashboardStats } from '../../../../common/dashboard.ts';
import { QUERY_KEYS } from './query-keys.ts';

/**
 * The admin session as the browser sees it: unknown while the first check runs, then authenticated
 * when GET /api/admin/dashboard/stats succeeds and unauthenticated when it answers 401. Only a 401
 * means signed out: when the server cannot be reached (network error, 5xx) the last answer stands
 * and `offline` is set, so a stopped server never swaps the console for the login form. The answer
 * lives in the query cache, so the login page and the admin layout share it and `queryClient.clear()`
 * forgets it.
 */
export type AdminSessionState = 'unknown' | 'authenticated' | 'unauthenticated';

export interface AdminSession {
  state: AdminSessionState;
  /** The last check got no answer (or a 5xx): the server is unreachable and checks repeat until it answers. */
  offline: boolean;
}

export const ADMIN_SESSION_KEY = ['admin-session'] as const;

/** Where a successful login and an already signed-in visit to /admin/login go. */
export const ADMIN_HOME = '/admin/dashboard';
export const ADMIN_LOGIN_PATH = '/admin/login';

/** How often the session is checked again while the server is unreachable. */
export const OFFLINE_RETRY_MS = 5_000;

export function adminSessionQuery() {
  return queryOptions({
    queryKey: ADMIN_SESSION_KEY,
    // A 401 is the answer "signed out"; any other failure throws, so the query keeps its last answer.
    queryFn: async ({ client }) => {
      try {
        const stats = await apiRequest<DashboardStats>('GET', QUERY_KEYS.dashboardStats);
        // The check fetched the dashboard's figures anyway: hand them over instead of asking twice.
        client.setQueryData([QUERY_KEYS.dashboardStats], stats);
        return true;
      } catch (error) {
        if (failedStatus(error) === 401) return false;
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.status === 'error' ? OFFLINE_RETRY_MS : false),
  });
}

/**
 * Reads the session and checks it again on every path change under /admin (not on public paths).
 * The first check shows as 'unknown'; later checks keep the last answer until the new one lands.
 */
export function useAdminSession(): AdminSession {
  const { pathname } = useLocation();
  const session = useQuery(adminSessionQuery());
  const { refetch } = session;

  useEffect(() => {
    if (!pathname.startsWith('/admin')) return;
    // cancelRefetch: false joins a check already in flight (the first mount starts one).
    void refetch({ cancelRefetch: false });
  }, [pathname, refetch]);

  const state = session.data === undefined ? 'unknown' : session.data ? 'authenticated' : 'unauthenticated';
  return { state, offline: session.isError };
}

/**
 * Checks the session again when any other admin call fails in a way that may concern it: a 401
 * (the session expired or was revoked: the login form follows) or no answer at all (the offline
 * banner follows). Other failures are the screen's own business.
 */
export function useSessionCheckOnFailure(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const recheck = (error: unknown) => {
      const status = failedStatus(error);
      if (status !== null && status !== 401 && status < 500) return;
      void queryClient.refetchQueries({ queryKey: ADMIN_SESSION_KEY }, { cancelRefetch: false });
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (event.query.queryHash === adminSessionHash) return;
      recheck(event.action.error);
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') recheck(event.action.error);
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient]);
}

const adminSessionHash = hashKey(ADMIN_SESSION_KEY);

/** A rejected secret (401): the form shows the spec's text whatever the server wrote. */
export class InvalidSecretError extends Error {
  constructor() {
    super(LOGIN_TEXTS.invalid);
  }
}

/** fetch itself failed (server down, network gone). */
export class ConnectionError extends Error {
  constructor() {
    super(LOGIN_TEXTS.connection);
  }
}

/**
 * POST /api/admin/login. Fails when the answer is not OK, with the answer's `error` field or
 * 'Login failed'; a 401 is an InvalidSecretError, a failed fetch a ConnectionError.
 */
export async function loginAdmin(adminSecret: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/admin/login', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', [SERVER_ID_HEADER]: getServerId() },
      body: JSON.stringify({ adminSecret }),
    });
  } catch {
    throw new ConnectionError();
  }
  if (res.ok) return;
  if (res.status === 401) throw new InvalidSecretError();
  const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
  throw new Error(typeof body?.error === 'string' && body.error ? body.error : LOGIN_TEXTS.failed);
}

/** The text the login form shows for a failed login. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return LOGIN_TEXTS.connection;
}

/** Signs in; on success the session is authenticated and the browser goes to the dashboard. */
export function useAdminLogin() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: loginAdmin,
    onSuccess: () => {
      queryClient.setQueryData(ADMIN_SESSION_KEY, true);
      void navigate(ADMIN_HOME);
    },
  });
}

/** Signs out: tells the server, forgets every cached answer and goes to the login page. */
export function useAdminLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      try {
        await apiRequest('POST', '/api/admin/logout');
      } catch {
        // Leaving is never blocked: the cookie may already be gone, and the server session expires anyway.
      }
    },
    onSettled: () => {
      queryClient.clear();
      // Known answer, so the login form shows at once instead of 'Checking authentication...'.
      queryClient.setQueryData(ADMIN_SESSION_KEY, false);
      void navigate(ADMIN_LOGIN_PATH);
    },
  });
}
