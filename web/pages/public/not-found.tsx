import { Compass } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { useDarkDocument } from '@/components/use-dark-document.ts';

/** Any unknown path, public or under /admin. Self-contained so it fits both the public site and the admin shell. */
export function NotFoundPage() {
  useDarkDocument();
  return (
    <main className="dark flex min-h-[80vh] flex-col items-center justify-center gap-5 bg-[radial-gradient(ellipse_at_top,rgba(59,130,246,0.18),transparent_60%)] p-6 text-center text-foreground">
      <div className="flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br from-blue-500 to-violet-600 shadow-lg shadow-blue-500/30">
        <Compass className="h-7 w-7 text-white" aria-hidden="true" />
      </div>
      <h1 className="text-3xl font-bold text-white">404 Page Not Found</h1>
      <p className="max-w-md text-slate-300">The page you are looking for does not exist or has moved.</p>
      <Button asChild>
        <a href="/">Go to Home</a>
      </Button>
    </main>
  );
}
