import { toast } from './toast.ts';

/** Copies text and says so in a toast ('Copied to clipboard' / 'Failed to copy'). */
export async function copyToClipboard(text: string, what?: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied to clipboard', description: what });
    return true;
  } catch {
    toast({ title: 'Failed to copy', description: 'Could not copy to clipboard', variant: 'destructive' });
    return false;
  }
}
