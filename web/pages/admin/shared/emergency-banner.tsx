import { OctagonX } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import type { EmergencyState } from '../../../../common/configuration.ts';
import { formatDate } from '../../../../common/format.ts';

/** The red banner while the network is stopped: since when and why. */
export function EmergencyBanner({ emergency }: { emergency: EmergencyState }) {
  if (!emergency.stopped) return null;
  return (
    <Alert variant="destructive" className="border-red-600 bg-red-600/10">
      <OctagonX className="h-4 w-4" />
      <AlertTitle>The bot network is stopped</AlertTitle>
      <AlertDescription>
        {`Emergency stop since ${formatDate(emergency.changedAt)}${emergency.changedBy ? ` by ${emergency.changedBy}` : ''}. Reason: ${emergency.reason || 'none given'}. Bots do not hop or scan until you resume.`}
      </AlertDescription>
    </Alert>
  );
}
