import { ApiError } from './api.ts';
import { toast } from './toast.ts';

/**
 * An onError handler for a mutation: a destructive toast titled `title`, saying the server's
 * `{error}` when it sent one, else `fallback` (the spec's default text for that failure).
 */
export function toastFailure(title: string, fallback: string): (error: unknown) => void {
  return (error) => {
    toast({
      title,
      description: error instanceof ApiError ? error.serverMessage : fallback,
      variant: 'destructive',
    });
  };
}
