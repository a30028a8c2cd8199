import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { HeadingLevel } from '@/components/ui/heading-level.tsx';
import { useDarkDocument } from '@/components/use-dark-document.ts';
import { cn } from '@/lib/cn.ts';

/**
 * The dark, gradient backdrop every public page sits on, its content the page's main landmark. The
 * public site is always dark: the wrapper carries `dark` for its own subtree, and <html> gets it too
 * (useDarkDocument; the prerendered pages have it from the start).
 */
export function PublicShell({ children, className }: { children: React.ReactNode; className?: string }) {
  useDarkDocument();

  return (
    <div className="dark relative isolate flex min-h-screen flex-col overflow-hidden bg-[#060814] text-foreground">
      <Backdrop />
      {/* At least a screen tall, so the footer starts below the first screen: content that arrives later
          (an order's status, a key's details) never pushes a footer in view down the page. */}
      <main
        className={cn(
          'relative mx-auto min-h-screen w-full max-w-6xl flex-1 px-4 py-10 sm:px-6 lg:py-14',
          className,
        )}
      >
        {/* Under the page's h1: the cards' titles are h2, their subheadings h3. */}
        <HeadingLevel level={1}>{children}</HeadingLevel>
      </main>
      <PublicFooter />
    </div>
  );
}

/** The ghost "Back to Home" link at the top of a public sub-page (buyer, scripts). */
export function BackToHomeButton() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 mb-6 text-slate-300 hover:bg-white/5">
      <a href="/">
        <ArrowLeft aria-hidden="true" />
        Back to Home
      </a>
    </Button>
  );
}

/**
 * The glows and the grid behind the page, in a box one screen tall at the top of the page rather than
 * the page's full height: a page grows as its data arrives, and a layer placed against its bottom (or
 * sized by it) would move with it, a layout shift on a phone (issue 39). A phone's 100vh is its
 * largest viewport, which stays put as the address bar shows and hides. Not clipped here: the glows
 * fade out below it, and the shell clips them at the page's edges.
 */
function Backdrop() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-screen">
      <div className="absolute -top-48 left-1/2 h-[36rem] w-[64rem] -translate-x-1/2 rounded-full bg-gradient-to-r from-blue-600/25 via-violet-600/20 to-cyan-500/20 blur-3xl" />
      <div className="absolute -bottom-40 -right-32 h-[28rem] w-[28rem] rounded-full bg-fuchsia-600/10 blur-3xl" />
      <div className="absolute inset-0 bg-[linear-gradient(to_right,rgba(255,255,255,0.035)_1px,transparent_1px),linear-gradient(to_bottom,rgba(255,255,255,0.035)_1px,transparent_1px)] bg-[size:48px_48px] [mask-image:radial-gradient(ellipse_at_top,black_30%,transparent_75%)]" />
    </div>
  );
}

function PublicFooter() {
  return (
    <footer className="relative border-t border-white/5 py-6 text-sm text-muted-foreground">
      <div className="mx-auto flex w-full max-w-6xl flex-col items-center justify-between gap-3 px-4 sm:flex-row sm:px-6">
        <p>© {new Date().getFullYear()} Scanline. Real-time pet scanner network.</p>
        <nav aria-label="Site" className="flex gap-5">
          <a className="hover:text-foreground" href="/">
            Home
          </a>
          <a className="hover:text-foreground" href="/buyer">
            Premium
          </a>
          <a className="hover:text-foreground" href="/scripts">
            Scripts
          </a>
          <a className="hover:text-foreground" href="/key">
            My key
          </a>
        </nav>
      </div>
    </footer>
  );
}

/** The translucent card look of the public pages, layered over the backdrop. */
export const glassCard = 'border-white/10 bg-white/[0.035] shadow-xl shadow-black/20 backdrop-blur-sm';
