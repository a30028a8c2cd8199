import { type ReactElement, useId, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import type { ButtonProps } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { MAX_REASON_LENGTH } from '../../../../common/configuration.ts';

/**
 * An action on the whole fleet or its history that asks first, and asks why: `trigger` opens a
 * dialog with a Reason field, Cancel and the confirm button. The reason goes into the change record
 * and the other admins' toasts. With `reasonRequired`, confirm waits for a non-blank reason.
 */
export function ReasonDialog({
  trigger,
  title,
  description,
  confirmLabel,
  confirmVariant = 'destructive',
  reasonRequired = false,
  placeholder,
  onConfirm,
}: {
  trigger: ReactElement;
  title: string;
  description: string;
  confirmLabel: string;
  confirmVariant?: ButtonProps['variant'];
  reasonRequired?: boolean;
  placeholder?: string;
  onConfirm: (reason: string) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const blank = reason.trim() === '';
  return (
    <ConfirmDialog
      trigger={trigger}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      confirmVariant={confirmVariant}
      confirmDisabled={reasonRequired && blank}
      onOpenChange={(open) => open && setReason('')}
      onConfirm={() => onConfirm(reason.trim())}
    >
      <div className="grid gap-2">
        <Label htmlFor={id}>{reasonRequired ? 'Reason' : 'Reason (optional)'}</Label>
        <Textarea
          id={id}
          rows={3}
          value={reason}
          maxLength={MAX_REASON_LENGTH}
          placeholder={placeholder}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
    </ConfirmDialog>
  );
}
