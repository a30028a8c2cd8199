import { useQuery } from '@tanstack/react-query';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { CountBadge, ListCardTitle } from '../shared/list-controls.tsx';
import { DeliveriesPanel } from './deliveries-panel.tsx';
import { DestinationDialog } from './destination-dialog.tsx';
import { DestinationTable } from './destination-table.tsx';
import { destinationsQuery, loadFailureText } from './notifications-queries.ts';

/** /admin/notifications: where finds are posted (Discord channels, webhooks) and how those posts went. */
export default function NotificationsPage() {
  const destinations = useQuery(destinationsQuery());
  const list = destinations.data?.destinations;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Notifications"
        description="Post finds to Discord channels and webhooks, by value."
      >
        <DestinationDialog />
      </AdminPageHeader>

      <Card>
        <CardHeader className="gap-4">
          <ListCardTitle query={destinations} refreshLabel="Refresh destinations">
            Destinations
            {list && (
              <CountBadge count={list.length} noun={list.length === 1 ? 'destination' : 'destinations'} />
            )}
          </ListCardTitle>
          <CardDescription>
            Each takes the finds in its value range (the minimum included), for the pets listed or every pet.
          </CardDescription>
        </CardHeader>
        <CardContent className="px-0 pb-2 sm:px-2">
          {destinations.isError && !destinations.data ? (
            <Alert variant="destructive" className="mx-4 w-auto">
              <AlertTitle>Error loading destinations</AlertTitle>
              <AlertDescription>{loadFailureText(destinations.error)}</AlertDescription>
            </Alert>
          ) : (
            <DestinationTable destinations={list} />
          )}
        </CardContent>
      </Card>

      <DeliveriesPanel destinations={list ?? []} />
    </div>
  );
}
