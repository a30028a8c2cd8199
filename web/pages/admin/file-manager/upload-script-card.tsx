import { FileCode, Globe, Lock, Upload, X } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { cn } from '@/lib/cn.ts';
import { specToast, toast } from '@/lib/toast.ts';
import { formatFileSize } from '../../../../common/format.ts';
import { MAX_SCRIPT_BYTES, scriptFilenameProblem, type UploadDirectory } from '../../../../common/scripts.ts';
import { useUploadScriptFile } from './file-mutations.ts';

const LOCATION_LABELS: Record<UploadDirectory, string> = {
  'hosted-scripts': 'hosted-scripts/',
  'project-root': 'Project Root',
};

const LOCATION_HINTS: Record<UploadDirectory, string> = {
  'hosted-scripts': 'A hosted file: new, or a new version of a hosted file with the same name.',
  'project-root':
    'A new version of a shipped project script: the file must have the same name (e.g. scanline-free.lua).',
};

const CHECKING_TEXT = 'Checking the script on the server...';

/** The size limit as the server words it ("1 MiB"). */
const MAX_SIZE_TEXT = `${MAX_SCRIPT_BYTES / (1024 * 1024)} MiB`;

const ACCESS_OPTIONS = [
  { isPublic: true, label: 'Public: anyone can download', icon: Globe },
  { isPublic: false, label: 'Private: requires authentication', icon: Lock },
] as const;

/**
 * Why a picked file cannot be uploaded, as a toast, or null when it can. The type check is the
 * spec's; size and name are checked here too so the admin hears it before the bytes go up.
 */
function selectionProblem(file: File): { title: string; description: string } | null {
  if (!/\.lua$/i.test(file.name)) return specToast('Invalid File Type: Please select a .lua file');
  if (file.size > MAX_SCRIPT_BYTES) {
    return {
      title: 'File Too Large',
      description: `${file.name} is ${formatFileSize(file.size)}; a script can be at most ${MAX_SIZE_TEXT}.`,
    };
  }
  const nameProblem = scriptFilenameProblem(file.name);
  if (nameProblem) return { title: 'Invalid File Name', description: `${file.name}: ${nameProblem}` };
  return null;
}

/** The upload card: pick a .lua file, choose where it goes and who may download it, upload it. */
export function UploadScriptCard() {
  const fileInputId = useId();
  const locationId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [directory, setDirectory] = useState<UploadDirectory>('hosted-scripts');
  const [isPublic, setIsPublic] = useState(true);

  const clearSelection = () => {
    setFile(null);
    // The input keeps its own file list; empty it too so the same file can be picked again.
    if (fileInput.current) fileInput.current.value = '';
  };
  const { upload, uploading, progress, cancel } = useUploadScriptFile(clearSelection);

  const pickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    if (!picked) {
      setFile(null);
      return;
    }
    const problem = selectionProblem(picked);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      clearSelection();
      return;
    }
    setFile(picked);
  };

  const percent = Math.round((progress ?? 0) * 100);
  // Once every byte is sent the server checks the syntax, for a time nobody can measure.
  const sending = percent < 100;
  const uploadStatus = sending ? `Sending ${percent}%` : CHECKING_TEXT;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Upload className="h-5 w-5" />
          Upload Script File
        </CardTitle>
        <CardDescription>
          Lua files only, up to {MAX_SIZE_TEXT}. The server checks the Lua syntax before it stores anything.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div className="grid gap-5 md:grid-cols-2">
          <div className="flex flex-col gap-2">
            <Label htmlFor={fileInputId}>Script file (.lua)</Label>
            <Input
              id={fileInputId}
              ref={fileInput}
              type="file"
              accept=".lua"
              disabled={uploading}
              onChange={pickFile}
              className="cursor-pointer file:mr-3 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground"
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={locationId}>Save location</Label>
            <Select
              value={directory}
              onValueChange={(value) => setDirectory(value as UploadDirectory)}
              disabled={uploading}
            >
              <SelectTrigger id={locationId} aria-label="Save location">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(Object.keys(LOCATION_LABELS) as UploadDirectory[]).map((value) => (
                  <SelectItem key={value} value={value}>
                    {LOCATION_LABELS[value]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p className="text-xs text-muted-foreground">{LOCATION_HINTS[directory]}</p>
          </div>
        </div>

        <fieldset className="flex flex-col gap-2" disabled={uploading}>
          <legend className="mb-2 text-sm font-medium">Access</legend>
          <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
            {ACCESS_OPTIONS.map(({ isPublic: value, label, icon: Icon }) => (
              <label key={label} className="flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="file-access"
                  className="h-4 w-4 accent-primary"
                  checked={isPublic === value}
                  onChange={() => setIsPublic(value)}
                />
                <Icon className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        <SelectionSummary file={file} directory={directory} isPublic={isPublic} />

        {uploading && (
          // Not a live region: it would read out every percent. The progressbar carries the status
          // (value and text), and the outcome arrives as a toast.
          <div className="flex flex-col gap-1">
            <Progress
              value={sending ? percent : null}
              aria-label="Upload progress"
              aria-valuetext={uploadStatus}
              className="h-2"
            />
            <p className="text-xs text-muted-foreground tabular-nums">{uploadStatus}</p>
          </div>
        )}

        <div className="flex flex-wrap gap-2">
          <Button onClick={() => file && upload({ file, directory, isPublic })} disabled={!file || uploading}>
            <Upload className={cn(uploading && 'animate-pulse')} />
            {uploading ? `Uploading... ${percent}%` : 'Upload'}
          </Button>
          {uploading && (
            <Button variant="outline" onClick={cancel}>
              <X />
              Cancel
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** What will be sent: file name and size, location and access; or a hint while nothing is picked. */
function SelectionSummary({
  file,
  directory,
  isPublic,
}: {
  file: File | null;
  directory: UploadDirectory;
  isPublic: boolean;
}) {
  if (!file) {
    return <p className="text-sm text-muted-foreground">No file selected.</p>;
  }
  const rows: [string, string][] = [
    ['File', file.name],
    ['Size', formatFileSize(file.size)],
    ['Location', LOCATION_LABELS[directory]],
    ['Access', isPublic ? 'Public' : 'Private'],
  ];
  return (
    <section
      aria-label="Selected file"
      className="flex items-start gap-3 rounded-md border border-border bg-muted/40 p-3"
    >
      <FileCode className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
      <dl className="grid min-w-0 grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="truncate font-medium" title={value}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
