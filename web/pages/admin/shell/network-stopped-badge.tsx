import { Badge } from '@/components/ui/badge.tsx';
import { useEmergencyState } from '../shared/use-emergency-state.ts';

/** Whether the network is under an emergency stop; false until known. For the shell's sidebar. */
export function useNetworkStopped(): boolean {
  return useEmergencyState({ poll: false })?.stopped ?? false;
}

/** What the sidebar shows in place of Live Monitoring's LIVE badge while the network is stopped. */
export function NetworkStoppedBadge() {
  return (
    <Badge
      variant="outline"
      className="border-zinc-500/40 bg-zinc-500/15 px-1.5 py-0 text-[10px] text-zinc-300"
      title="Emergency stop: the bot network is stopped"
    >
      <span className="h-1.5 w-1.5 rounded-sm bg-zinc-400" />
      STOPPED
    </Badge>
  );
}
