import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { LICENSE_KEY_STATUSES } from '../../../../common/licensing.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { ListCardTitle, SearchBox } from '../shared/list-controls.tsx';
import { OptionSelect } from '../shared/option-select.tsx';
import { useDebouncedValue } from '../shared/use-debounced-value.ts';
import { CreateLicenseKeyDialog } from './create-license-key-dialog.tsx';
import { type LicenseKeyStatusFilter, licenseKeysQuery } from './license-key-queries.ts';
import { LicenseKeyTable } from './license-key-table.tsx';

/** Typing in the search box asks the server once it pauses this long. */
const SEARCH_DEBOUNCE_MS = 300;

const STATUS_FILTERS: readonly LicenseKeyStatusFilter[] = ['all', ...LICENSE_KEY_STATUSES];

/** /admin/license-keys: issue, find, reveal, copy, revoke and delete license keys. */
export default function LicenseKeysPage() {
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
          <ListCardTitle query={keys} refreshLabel="Refresh license keys">
            {keys.data ? `${keys.data.count} ${keys.data.count === 1 ? 'key' : 'keys'}` : 'Keys'}
          </ListCardTitle>
          <div className="flex flex-col gap-3 sm:flex-row">
            <SearchBox
              label="Search license keys"
              placeholder="Search by key or notes..."
              value={search}
              onValueChange={setSearch}
            />
            <div className="sm:w-48">
              <OptionSelect
                aria-label="Filter by status"
                value={status}
                options={STATUS_FILTERS}
                onValueChange={setStatus}
                renderOption={(value) => (value === 'all' ? 'All statuses' : value)}
              />
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
