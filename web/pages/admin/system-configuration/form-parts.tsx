import { LoaderCircle, Save } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';

/** Under a field: its error (announced) when there is one, else what is saved now. */
export function FieldNote({ error, children }: { error: string | undefined; children: ReactNode }) {
  return error ? (
    <p role="alert" className="text-sm text-destructive">
      {error}
    </p>
  ) : (
    <p className="text-xs text-muted-foreground">{children}</p>
  );
}

/** A form's submit button, spinning and disabled while a save is under way. */
export function SaveButton({ saving, children }: { saving: boolean; children: ReactNode }) {
  return (
    <div>
      <Button type="submit" disabled={saving}>
        {saving ? <LoaderCircle className="animate-spin" /> : <Save />}
        {children}
      </Button>
    </div>
  );
}
