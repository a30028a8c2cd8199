import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { RefreshCw, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { type LicenseKeyStatusFilter, licenseKeysQuery } from '@/lib/admin-queries.ts';
import { cn } from '@/lib/cn.ts';
import { LICENSE_KEY_STATUSES } from '../../../common/licensing.ts';
import { AdminPageHeader } from './admin-page-header.tsx';
import { CreateLicenseKeyDialog } from './create-license-key-dialog.tsx';
import { errorText } from './error-text.ts';
import { LicenseKeyTable } from './license-key-table.tsx';
import { useDebouncedValue } from './use-debounced-value.ts';

/** Typing in the search box asks the server once it pauses this long. */
const SEARCH_DEBOUNCE_MS = 300;

const STATUS_FILTERS: { value: LicenseKeyStatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  ...LICENSE_KEY_STATUSES.map((status) => ({ value: status, label: status })),
];

/** /admin/license-keys: issue, find, reveal, copy, revoke and delete license keys. */
export default function LicenseKeysPage() {
  const searchId = useId();
  const statusId = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<LicenseKeyStatusFilter>('all');
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const keys = useQuery({
    ...licenseKeysQuery({ search: debouncedSearch, status }),
    // Keep the rows on screen while a new filter loads instead of flashing "Loading".
    placeholderData: keepPreviousData,
  });

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="License Keys"
        description="Keys bind to a buyer's devices; revoke a key to cut it off everywhere at once."
      >
        <CreateLicenseKeyDialog />
      </AdminPageHeader>

      <Card>
        <CardHeader className="gap-4">
          <div className="flex items-center justify-between gap-2">
            <CardTitle className="text-lg">
              {keys.data ? `${keys.data.count} ${keys.data.count === 1 ? 'key' : 'keys'}` : 'Keys'}
            </CardTitle>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void keys.refetch()}
              disabled={keys.isFetching}
              aria-label="Refresh license keys"
            >
              <RefreshCw className={cn(keys.isFetching && 'animate-spin')} />
            </Button>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <div className="relative flex-1">
              <Label htmlFor={searchId} className="sr-only">
                Search license keys
              </Label>
              <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                id={searchId}
                type="search"
                value={search}
                placeholder="Search by key or notes..."
                className="pl-9"
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            <div className="sm:w-48">
              <Label htmlFor={statusId} className="sr-only">
                Filter by status
              </Label>
              <Select value={status} onValueChange={(v) => setStatus(v as LicenseKeyStatusFilter)}>
                <SelectTrigger id={statusId} aria-label="Filter by status">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {STATUS_FILTERS.map(({ value, label }) => (
                    <SelectItem key={value} value={value}>
                      {label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
        </CardHeader>
        <CardContent className="px-0 pb-2 sm:px-2">
          {keys.isError && !keys.data ? (
            <Alert variant="destructive" className="mx-4 w-auto">
              <AlertDescription>{`Failed to load license keys: ${errorText(keys.error)}`}</AlertDescription>
            </Alert>
          ) : (
            <LicenseKeyTable keys={keys.data?.licenseKeys} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
