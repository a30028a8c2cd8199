import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import { isUploadAborted, uploadWithProgress } from '@/lib/upload.ts';
import type {
  DeleteScriptResponse,
  ScriptFileRecord,
  UploadDirectory,
  UploadScriptResponse,
} from '../../../../common/scripts.ts';
import { refreshScriptStore } from '../shared/refresh.ts';
import { HOSTED_SCRIPTS_URL } from './file-queries.ts';

export const UPLOAD_URL = '/api/admin/scripts/upload';

/** What the upload card sends: the multipart fields of POST /api/admin/scripts/upload. */
export interface ScriptUpload {
  file: File;
  directory: UploadDirectory;
  isPublic: boolean;
}

/**
 * Uploads a script file with a progress figure (0 to 1 while the bytes go up, null when idle) and a
 * cancel. A cancelled upload says so instead of reporting a failure; leaving the screen cancels it.
 */
export function useUploadScriptFile(onUploaded: () => void) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const mutation = useMutation({
    mutationFn: ({ file, directory, isPublic }: ScriptUpload) => {
      const form = new FormData();
      // Text fields first: a streaming multipart parser then knows them before the file arrives.
      form.append('directory', directory);
      form.append('isPublic', String(isPublic));
      form.append('file', file, file.name);
      controller.current = new AbortController();
      return uploadWithProgress<UploadScriptResponse>(UPLOAD_URL, form, {
        onProgress: setProgress,
        signal: controller.current.signal,
      });
    },
    onSuccess: async ({ file, version }) => {
      toast({
        title: 'File Uploaded',
        description: `${file.filename} is live as version ${version}.`,
      });
      onUploaded();
      await refreshScriptStore(queryClient);
    },
    onError: (error, upload) => {
      if (isUploadAborted(error)) {
        toast({ title: 'Upload Cancelled', description: `${upload.file.name} was not uploaded.` });
        return;
      }
      toastFailure('Upload Failed', 'Failed to upload file.')(error);
    },
    onSettled: () => {
      controller.current = null;
      setProgress(null);
    },
  });

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { upload: mutation.mutate, uploading: mutation.isPending, progress, cancel };
}

/** Deletes a hosted file by its id (the server refuses project files with a 403 and says why). */
export function useDeleteScriptFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: ScriptFileRecord) =>
      apiRequest<DeleteScriptResponse>('DELETE', `${HOSTED_SCRIPTS_URL}/${file.id}`),
    onSuccess: async ({ filename }) => {
      toast({ title: 'File Deleted', description: `${filename} has been removed.` });
      await refreshScriptStore(queryClient);
    },
    onError: toastFailure('Delete Failed', 'Failed to delete file.'),
  });
}
