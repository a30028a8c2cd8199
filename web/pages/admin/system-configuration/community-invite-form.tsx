import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import type { SystemConfiguration } from '../../../../common/system.ts';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { FieldNote, SaveButton } from './form-parts.tsx';

/** Empty clears the link; anything else must be an https link (the server checks the same). */
const CommunityInviteSchema = z.object({
  communityInviteUrl: z.union([
    z.literal(''),
    z.url({ protocol: /^https$/, error: 'Enter an https:// link, or leave it empty' }).max(500),
  ]),
});
type CommunityInvite = z.infer<typeof CommunityInviteSchema>;

/**
 * The community chat invite buyers open a ticket through (the landing page's chat card and the
 * buyer page's ticket step). Empty: those say to contact the seller instead.
 */
export function CommunityInviteForm({
  configuration,
  saving,
  onSave,
}: {
  configuration: SystemConfiguration;
  saving: boolean;
  onSave: (configuration: SystemConfiguration) => void;
}) {
  const fieldId = useId();
  const saved = configuration.communityInviteUrl ?? '';
  const form = useForm<CommunityInvite>({
    resolver: zodResolver(CommunityInviteSchema),
    values: { communityInviteUrl: saved },
    resetOptions: { keepDirtyValues: true },
  });
  const error = form.formState.errors.communityInviteUrl?.message;
  useUnsavedEdits(form.watch('communityInviteUrl').trim() !== saved);
  const submit = form.handleSubmit(({ communityInviteUrl }) =>
    onSave({
      totalSlots: configuration.totalSlots,
      paymentWallets: configuration.paymentWallets,
      communityInviteUrl: communityInviteUrl.trim() === '' ? null : communityInviteUrl.trim(),
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Community Invite Link</CardTitle>
        <CardDescription>
          Where buyers open a ticket with their transaction hash (the landing page's chat card and the buyer
          page). Leave it empty and those pages tell buyers to contact you where they found the shop.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid max-w-xl gap-4">
          <div className="grid gap-2">
            <Label htmlFor={fieldId}>Invite link</Label>
            <Input
              id={fieldId}
              type="url"
              placeholder="https://discord.gg/..."
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              {...form.register('communityInviteUrl')}
            />
            <FieldNote error={error}>
              {saved ? `Currently saved: ${saved}` : 'Not set: buyers are told to contact the seller.'}
            </FieldNote>
          </div>
          <SaveButton saving={saving}>Save Link</SaveButton>
        </form>
      </CardContent>
    </Card>
  );
}
