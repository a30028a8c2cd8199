import { useQuery } from '@tanstack/react-query';
import { RefreshCw, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { redemptionKeysQuery } from '@/lib/admin-queries.ts';
import { cn } from '@/lib/cn.ts';
import { AdminPageHeader } from './admin-page-header.tsx';
import { CreateRedemptionCodeDialog } from './create-redemption-code-dialog.tsx';
import { errorText } from './error-text.ts';
import { RedemptionCodeTable } from './redemption-code-table.tsx';
import {
  filterRedemptionCodes,
  REDEMPTION_FILTER_LABELS,
  REDEMPTION_FILTERS,
  type RedemptionFilter,
} from './redemption-filter.ts';

/** /admin/redemption-keys: create, find, reveal, copy and delete the codes script users redeem. */
export default function RedemptionKeysPage() {
  const searchId = useId();
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
          <div className="flex items-center justify-between gap-2">
            <CardTitle className="flex items-center gap-2 text-lg">
              Codes
              {shown && (
                <Badge
                  variant="secondary"
                  aria-label={`${shown.length} ${shown.length === 1 ? 'code' : 'codes'}`}
                >
                  {shown.length}
                </Badge>
              )}
            </CardTitle>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void codes.refetch()}
              disabled={codes.isFetching}
              aria-label="Refresh redemption codes"
            >
              <RefreshCw className={cn(codes.isFetching && 'animate-spin')} />
            </Button>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <div className="relative flex-1">
              <Label htmlFor={searchId} className="sr-only">
                Search redemption codes
              </Label>
              <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                id={searchId}
                type="search"
                value={search}
                placeholder="Search by code or type..."
                className="pl-9"
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            <div className="sm:w-48">
              <Select value={filter} onValueChange={(v) => setFilter(v as RedemptionFilter)}>
                <SelectTrigger aria-label="Filter codes">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {REDEMPTION_FILTERS.map((value) => (
                    <SelectItem key={value} value={value}>
                      {REDEMPTION_FILTER_LABELS[value]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
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
