import { useEffect } from 'react';

/** How many mounted admin screens want dark mode; the class goes when the last one leaves. */
let holders = 0;

/**
 * The admin area forces dark mode: puts `dark` on <html> while mounted. Counted, so the login page
 * handing over to the admin layout (or the other way round) never leaves the class off.
 */
export function useForcedDarkMode(): void {
  useEffect(() => {
    holders += 1;
    document.documentElement.classList.add('dark');
    return () => {
      holders -= 1;
      if (holders === 0) document.documentElement.classList.remove('dark');
    };
  }, []);
}
