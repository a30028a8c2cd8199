import { useEffect } from 'react';

/** How many mounted screens want dark mode; the class goes only when the last one leaves. */
let holders = 0;

/**
 * Puts `dark` on <html> while the calling screen is shown, so the page background and portalled
 * pieces (toasts, tooltips) match it. The public site, the error screens and the admin area are
 * always dark. Counted rather than remembered per screen: when one screen hands over to another
 * (the login page to the admin layout, a page to its error screen, or the other way round) in any
 * order, the class is never left off while a screen still wants it.
 */
export function useDarkDocument(): void {
  useEffect(() => {
    holders += 1;
    document.documentElement.classList.add('dark');
    return () => {
      holders -= 1;
      if (holders === 0) document.documentElement.classList.remove('dark');
    };
  }, []);
}
