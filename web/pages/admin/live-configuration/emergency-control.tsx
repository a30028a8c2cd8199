import { LoaderCircle, OctagonX, Play } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import type { EmergencyState } from '../../../../common/configuration.ts';
import { useEmergencyControl } from './live-configuration-mutations.ts';
import { ReasonDialog } from './reason-dialog.tsx';

/**
 * The header's toggle (spec section 4): Emergency Stop while the network runs, Emergency Resume
 * while it is stopped. Either asks for a reason and a confirmation first.
 */
export function EmergencyToggle({ emergency }: { emergency: EmergencyState }) {
  const control = useEmergencyControl();
  const action = emergency.stopped ? 'resume' : 'stop';
  const words = TOGGLE[action];
  return (
    <ReasonDialog
      trigger={
        <Button className={words.className} variant={words.variant} disabled={control.isPending}>
          {control.isPending ? <LoaderCircle className="animate-spin" /> : words.icon}
          {words.label}
        </Button>
      }
      title={words.title}
      description={words.description}
      confirmLabel={words.confirmLabel}
      confirmVariant={words.variant}
      placeholder={words.placeholder}
      onConfirm={(reason) => control.mutate({ action, reason })}
    />
  );
}

/** The toggle's two positions: Stop while the network runs, Resume while it is stopped. */
const TOGGLE = {
  stop: {
    label: 'Emergency Stop',
    icon: <OctagonX />,
    variant: 'destructive',
    className: undefined,
    title: 'Stop the whole bot network?',
    description:
      'Every connected bot stops hopping at once, and bots that connect later are told to stop, until you resume. Survives a server restart.',
    confirmLabel: 'Stop All Bots',
    placeholder: 'e.g. Game update rolling out',
  },
  resume: {
    label: 'Emergency Resume',
    icon: <Play />,
    variant: 'default',
    className: 'bg-emerald-700 text-white hover:bg-emerald-800',
    title: 'Resume the bot network?',
    description: 'Every connected bot is told to resume hopping and scanning with its current configuration.',
    confirmLabel: 'Resume Network',
    placeholder: 'e.g. Game servers are stable again',
  },
} as const;
