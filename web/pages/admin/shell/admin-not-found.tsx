import { Compass, LayoutDashboard } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { ADMIN_HOME } from '../shared/admin-session.ts';

/**
 * An unknown path under /admin: the not-found page inside the console (sidebar and session kept),
 * whose button goes back to the dashboard rather than out to the public site.
 */
export function AdminNotFound() {
  return (
    <section
      aria-labelledby="admin-not-found-title"
      className="flex min-h-[60vh] flex-col items-center justify-center gap-5 text-center"
    >
      <div className="flex h-14 w-14 items-center justify-center rounded-2xl bg-primary/15 text-primary">
        <Compass className="h-7 w-7" aria-hidden="true" />
      </div>
      <h1 id="admin-not-found-title" className="text-3xl font-bold">
        404 Page Not Found
      </h1>
      <p className="max-w-md text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Button asChild>
        <Link to={ADMIN_HOME}>
          <LayoutDashboard aria-hidden="true" />
          Go to Dashboard
        </Link>
      </Button>
    </section>
  );
}
