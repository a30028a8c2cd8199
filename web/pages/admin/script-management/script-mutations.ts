import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import type {
  AccessTypeResponse,
  DeleteScriptResponse,
  SaveScriptRequest,
  SaveScriptResponse,
  ScriptAccessType,
  ScriptResponse,
} from '../../../../common/scripts.ts';
import { refreshScriptStore } from '../shared/refresh.ts';
import { SCRIPTS_URL } from './script-queries.ts';
import { luaSyntaxRefusal } from './script-save-error.ts';

const SAVE_URL = `${SCRIPTS_URL}/save`;

function scriptUrl(filename: string): string {
  return `${SCRIPTS_URL}/${encodeURIComponent(filename)}`;
}

/** Save & Deploy: a new version that every user gets at once. */
export function useSaveScript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveScriptRequest) => apiRequest<SaveScriptResponse>('POST', SAVE_URL, request),
    onSuccess: async ({ script, version }, { content }) => {
      toast({
        title: 'Script Updated',
        description: `Saved and deployed to all users instantly (version ${version.version}).`,
      });
      // The editor compares itself with this at once, even if the refetch below is slow or fails.
      queryClient.setQueryData<ScriptResponse>([SCRIPTS_URL, script.name], {
        script: { ...script, content },
      });
      await refreshScriptStore(queryClient);
    },
    onError: (error) => {
      const refusal = luaSyntaxRefusal(error);
      if (refusal) {
        toast({ title: 'Deploy Failed', description: refusal.error, variant: 'destructive' });
        return;
      }
      toastFailure('Save Failed', 'Failed to save script. Please try again.')(error);
    },
  });
}

/** Create Script: the first version of a new script (the save call creates what does not exist). */
export function useCreateScript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { filename: string; content: string }) =>
      apiRequest<SaveScriptResponse>('POST', SAVE_URL, { ...request, notes: 'Created' }),
    onSuccess: async ({ script }) => {
      toast({ title: 'Script Created', description: `${script.name} is ready to edit.` });
      await refreshScriptStore(queryClient);
    },
    onError: toastFailure('Creation Failed', 'Failed to create script.'),
  });
}

export function useDeleteScript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (filename: string) => apiRequest<DeleteScriptResponse>('DELETE', scriptUrl(filename)),
    onSuccess: async ({ filename }) => {
      toast({ title: 'Script Deleted', description: `${filename} and its versions are gone.` });
      // The deleted script's own queries would refetch into a 404: drop them instead.
      queryClient.removeQueries({ queryKey: [SCRIPTS_URL, filename] });
      await refreshScriptStore(queryClient);
    },
    onError: toastFailure('Delete Failed', 'Failed to delete script.'),
  });
}

export function useUpdateAccessType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ filename, accessType }: { filename: string; accessType: ScriptAccessType }) =>
      apiRequest<AccessTypeResponse>('PUT', `${scriptUrl(filename)}/access-type`, { accessType }),
    onSuccess: async ({ script }) => {
      toast({ title: 'Access Type Updated', description: `${script.name} is now ${script.accessType}.` });
      await refreshScriptStore(queryClient);
    },
    onError: toastFailure('Update Failed', 'Failed to update access type.'),
  });
}
