import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import {
  type ScriptListResponse,
  type ScriptResponse,
  type ScriptVersionsResponse,
  VERSION_HISTORY_SHOWN,
} from '../../../../common/scripts.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

export const SCRIPTS_URL = QUERY_KEYS.scripts;

/** Every script (name, access type, size, version); the management screen's picker. */
export function scriptsQuery() {
  return queryOptions({
    queryKey: [SCRIPTS_URL],
    queryFn: () => getJson<ScriptListResponse>(SCRIPTS_URL, { failure: 'Failed to fetch scripts' }),
    select: (data) => data.scripts,
  });
}

/** One script with its current content. */
export function scriptQuery(filename: string) {
  const url = `${SCRIPTS_URL}/${encodeURIComponent(filename)}`;
  return queryOptions({
    queryKey: [SCRIPTS_URL, filename],
    queryFn: () => getJson<ScriptResponse>(url, { failure: 'Failed to fetch script content' }),
    select: (data) => data.script,
  });
}

/** The versions the history shows (the newest VERSION_HISTORY_SHOWN), newest first. */
export function scriptVersionsQuery(filename: string) {
  const url = `${SCRIPTS_URL}/${encodeURIComponent(filename)}/versions?limit=${VERSION_HISTORY_SHOWN}`;
  return queryOptions({
    queryKey: [SCRIPTS_URL, filename, 'versions'],
    queryFn: () => getJson<ScriptVersionsResponse>(url, { failure: 'Failed to fetch script versions' }),
    select: (data) => data.versions,
  });
}
