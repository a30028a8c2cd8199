import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '@/lib/api.ts';

/*
 * A form checks what it can before sending; the server stays the judge of the rest (a date that
 * passed meanwhile, a URL whose host resolves to a private address). When it refuses, its answer
 * names the field: a schema 400 by `issues[0].path`, a service's 400 by starting with the field's
 * name ("expiresAt must be in the future", "url: The URL must use https"). Its text then shows
 * beside that field, as the form's own messages do, and not only in a toast or at the form's foot.
 */

/** A 4xx's field and text, when the answer names one of `fields`; the "field: " prefix is dropped. */
export function serverFieldError<F extends string>(
  error: unknown,
  fields: readonly F[],
): { field: F; message: string } | null {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return null;
  const text = error.serverMessage;
  const named = (candidate: string | undefined): F | undefined => fields.find((field) => field === candidate);
  let field: F | undefined;
  try {
    const body = JSON.parse(error.body) as { issues?: { path?: unknown }[] };
    const path = body.issues?.[0]?.path;
    if (typeof path === 'string') field = named(path.split('.')[0]);
  } catch {
    // Not JSON: the text alone may name the field.
  }
  field ??= named(/^([A-Za-z]+)\b/.exec(text)?.[1]);
  if (field === undefined) return null;
  const prefix = `${field}: `;
  return { field, message: text.startsWith(prefix) ? text.slice(prefix.length) : text };
}

/**
 * Shows a failed call's text beside the field it names, if it names one of the form's fields.
 * Returns whether it did (the caller may then leave out a message at the form's foot).
 */
export function showServerFieldError<T extends FieldValues>(form: UseFormReturn<T>, error: unknown): boolean {
  const found = serverFieldError(error, Object.keys(form.getValues()) as Path<T>[]);
  if (!found) return false;
  form.setError(found.field, { type: 'server', message: found.message }, { shouldFocus: true });
  return true;
}
