import { toast } from './toast.ts';

/**
 * Copies text and says so in a toast ('Copied to clipboard', or `failureTitle` with 'Could not copy
 * to clipboard'; screens whose spec names another failure title pass it).
 */
export async function copyToClipboard(
  text: string,
  what?: string,
  failureTitle = 'Failed to copy',
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied to clipboard', description: what });
    return true;
  } catch {
    toast({ title: failureTitle, description: 'Could not copy to clipboard', variant: 'destructive' });
    return false;
  }
}
