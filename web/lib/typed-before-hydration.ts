import { useEffect } from 'react';

/**
 * Takes over what a buyer typed or pasted into a prerendered field before the page's script ran (a
 * slow phone): hydration leaves the text in the field but the state starts empty, so the form's
 * button stayed disabled and the next render cleared the field. Once, when the page hydrates.
 */
export function useTypedBeforeHydration(fieldId: string, setValue: (value: string) => void): void {
  useEffect(() => {
    const field = document.getElementById(fieldId);
    if (field instanceof HTMLInputElement && field.value !== '') setValue(field.value);
  }, [fieldId, setValue]);
}
