import { useEffect } from 'react';

/**
 * Puts `dark` on <html> while the calling screen is shown, so the page background and portalled
 * pieces (toasts, tooltips) match it. The public site and the error screens are always dark.
 * On unmount the class goes only if it was not there before (the admin shell sets it too).
 */
export function useDarkDocument(): void {
  useEffect(() => {
    const root = document.documentElement;
    const wasDark = root.classList.contains('dark');
    root.classList.add('dark');
    return () => {
      if (!wasDark) root.classList.remove('dark');
    };
  }, []);
}
