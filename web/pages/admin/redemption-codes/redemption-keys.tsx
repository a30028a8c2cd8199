import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { CountBadge, ListCardTitle, SearchBox } from '../shared/list-controls.tsx';
import { OptionSelect } from '../shared/option-select.tsx';
import { CreateRedemptionCodeDialog } from './create-redemption-code-dialog.tsx';
import { RedemptionCodeTable } from './redemption-code-table.tsx';
import {
  filterRedemptionCodes,
  REDEMPTION_FILTER_LABELS,
  REDEMPTION_FILTERS,
  type RedemptionFilter,
} from './redemption-filter.ts';
import { redemptionKeysQuery } from './redemption-queries.ts';

/** /admin/redemption-keys: create, find, reveal, copy and delete the codes script users redeem. */
export default function RedemptionKeysPage() {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<RedemptionFilter>('all');
  const codes = useQuery(redemptionKeysQuery());
  const shown = codes.data ? filterRedemptionCodes(codes.data.redemptionKeys, search, filter) : undefined;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Redemption Codes"
        description="Manage premium access codes for game script users."
      >
        <CreateRedemptionCodeDialog />
      </AdminPageHeader>

      <Card>
        <CardHeader className="gap-4">
          <ListCardTitle query={codes} refreshLabel="Refresh redemption codes">
            Codes
            {shown && <CountBadge count={shown.length} noun={shown.length === 1 ? 'code' : 'codes'} />}
          </ListCardTitle>
          <div className="flex flex-col gap-3 sm:flex-row">
            <SearchBox
              label="Search redemption codes"
              placeholder="Search by code or type..."
              value={search}
              onValueChange={setSearch}
            />
            <div className="sm:w-48">
              <OptionSelect
                aria-label="Filter codes"
                value={filter}
                options={REDEMPTION_FILTERS}
                onValueChange={setFilter}
                renderOption={(value) => REDEMPTION_FILTER_LABELS[value]}
              />
            </div>
          </div>
        </CardHeader>
        <CardContent className="px-0 pb-2 sm:px-2">
          {codes.isError && !codes.data ? (
            <Alert variant="destructive" className="mx-4 w-auto">
              <AlertTitle>Error loading redemption codes</AlertTitle>
              <AlertDescription>{loadFailureText(codes.error)}</AlertDescription>
            </Alert>
          ) : (
            <RedemptionCodeTable codes={shown} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The query's message ('Failed to fetch redemption keys') and, when the server said why, its reason. */
function loadFailureText(error: Error): string {
  return error.cause === undefined ? error.message : `${error.message}: ${errorText(error.cause)}`;
}
