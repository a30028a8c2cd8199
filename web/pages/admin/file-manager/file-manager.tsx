import { useQuery } from '@tanstack/react-query';
import { FolderOpen, RefreshCw } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { allScriptFilesQuery } from './file-queries.ts';
import { ScriptFileTable } from './script-file-table.tsx';
import { UploadScriptCard } from './upload-script-card.tsx';

/** /admin/file-manager: upload .lua files, list every script file with its URL, delete hosted ones. */
export default function FileManagerPage() {
  const files = useQuery(allScriptFilesQuery());

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Script File Manager"
        description="Upload Lua script files, copy their download URLs and remove hosted files."
      />

      <UploadScriptCard />

      <Card>
        <CardHeader>
          <div className="flex items-center justify-between gap-2">
            <CardTitle className="flex items-center gap-2 text-lg">
              <FolderOpen className="h-5 w-5" />
              Script Files
              {files.data && <Badge variant="secondary">{files.data.length}</Badge>}
            </CardTitle>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void files.refetch()}
              disabled={files.isFetching}
              aria-label="Refresh files"
            >
              <RefreshCw className={cn(files.isFetching && 'animate-spin')} />
            </Button>
          </div>
        </CardHeader>
        <CardContent className="px-0 pb-2 sm:px-2">
          {files.isError && !files.data ? (
            <Alert variant="destructive" className="mx-4 w-auto">
              <AlertTitle>Files unavailable</AlertTitle>
              <AlertDescription>{`Failed to load script files: ${errorText(files.error)}`}</AlertDescription>
            </Alert>
          ) : (
            <ScriptFileTable files={files.data} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
