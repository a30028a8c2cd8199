import { ChevronDown, ExternalLink, LoaderCircle, LogOut, Menu, Radar, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { HeadingLevel } from '@/components/ui/heading-level.tsx';
import { TooltipProvider } from '@/components/ui/tooltip.tsx';
import { useDarkDocument } from '@/components/use-dark-document.ts';
import { cn } from '@/lib/cn.ts';
import { RealtimeProvider, useRealtime } from '@/lib/realtime.tsx';
import { useConfigurationEvents } from '../live-configuration/use-configuration-events.ts';
import { useAdminLogout, useAdminSession, useSessionCheckOnFailure } from '../shared/admin-session.ts';
import { useFleetCondition, useFleetConditionFollowsEmergency } from '../shared/fleet-condition.tsx';
import { ConnectionBadge, RealtimeStatus } from '../shared/realtime-status.tsx';
import { UnsavedWorkProvider, useConfirmLeavingUnsavedWork } from '../shared/use-unsaved-changes-guard.tsx';
import { ADMIN_NAV, type AdminNavItem, isNavItemActive } from './admin-nav.ts';
import { CheckingAuthentication } from './checking-authentication.tsx';
import { FleetStateBadge } from './fleet-state-badge.tsx';
import { AdminLoginScreen } from './login-form.tsx';
import { ServerUnreachableBanner, useRefetchFailedAfterOutage } from './server-unreachable-banner.tsx';
import { useRealtimeInvalidation } from './use-realtime-invalidation.ts';

// The console's not-found page travels in the shell's chunk (web/routes.tsx).
export { AdminNotFound } from './admin-not-found.tsx';

/** The id of the console's <main>, where the skip link goes. */
export const ADMIN_MAIN_ID = 'admin-main';

/**
 * The admin shell around every /admin screen. Screens show only with a confirmed session; otherwise
 * the login form is shown in place. Real-time connects only once the session is confirmed. An
 * unreachable server keeps the console (and any unsaved edits) with a banner, never the login form.
 */
export default function AdminLayout() {
  useDarkDocument();
  const session = useAdminSession();
  if (session.state === 'unknown') return <CheckingAuthentication offline={session.offline} />;
  if (session.state === 'unauthenticated') return <AdminLoginScreen />;
  // Tooltips are the console's alone: the public pages do not load Radix's tooltip and positioning code.
  return (
    <TooltipProvider>
      <RealtimeProvider>
        <UnsavedWorkProvider>
          <AdminShell offline={session.offline} />
        </UnsavedWorkProvider>
      </RealtimeProvider>
    </TooltipProvider>
  );
}

function AdminShell({ offline }: { offline: boolean }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);
  const { status } = useRealtime();
  useRealtimeInvalidation();
  // An emergency stop or a push made elsewhere is news on every screen, not only Live Configuration.
  useConfigurationEvents();
  useFleetConditionFollowsEmergency();
  useSessionCheckOnFailure();
  useRefetchFailedAfterOutage(offline);

  // Escape closes the slide-over menu on small screens.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <div className="min-h-screen bg-background text-foreground">
      <SkipLink />
      {/* Small screens: a top bar with the menu toggle; the sidebar slides over the page. */}
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b bg-card/95 px-4 backdrop-blur lg:hidden">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Toggle menu"
          aria-expanded={menuOpen}
          aria-controls="admin-sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X /> : <Menu />}
        </Button>
        <Brand />
        <ConnectionBadge status={status} className="ml-auto" />
      </header>

      {menuOpen && (
        <button
          type="button"
          aria-label="Close menu"
          tabIndex={-1}
          className="fixed inset-0 z-30 bg-black/60 lg:hidden"
          onClick={closeMenu}
        />
      )}

      <aside
        id="admin-sidebar"
        className={cn(
          'fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-r bg-card transition-transform duration-200',
          'lg:translate-x-0',
          menuOpen ? 'translate-x-0' : '-translate-x-full',
        )}
      >
        <div className="flex h-14 shrink-0 items-center justify-between border-b px-4">
          <Brand />
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label="Close sidebar"
            onClick={closeMenu}
          >
            <X />
          </Button>
        </div>
        <SidebarNav onNavigate={closeMenu} />
        <SidebarFooter />
      </aside>

      <main id={ADMIN_MAIN_ID} tabIndex={-1} className="min-w-0 outline-none lg:pl-64">
        {offline && <ServerUnreachableBanner className="sticky top-14 z-20 lg:top-0" />}
        <div className="mx-auto w-full min-w-0 max-w-7xl p-4 sm:p-6">
          {/* Each screen opens with its h1: what it renders below heads from level 2. */}
          <HeadingLevel level={1}>
            <Outlet />
          </HeadingLevel>
        </div>
      </main>
    </div>
  );
}

/**
 * The first thing Tab reaches: jumps past the sidebar to the screen. Hidden until focused. Focus is
 * moved by hand (the router owns the URL, so no #fragment is added).
 */
function SkipLink() {
  return (
    <a
      href={`#${ADMIN_MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        const main = document.getElementById(ADMIN_MAIN_ID);
        main?.focus();
        main?.scrollIntoView();
      }}
      className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-primary focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-primary-foreground focus:shadow-lg focus:outline-none focus:ring-2 focus:ring-ring focus:ring-offset-2 focus:ring-offset-background"
    >
      Skip to main content
    </a>
  );
}

function Brand() {
  return (
    <Link to="/admin/dashboard" className="flex items-center gap-2">
      <span className="flex h-8 w-8 items-center justify-center rounded-md bg-primary/15 text-primary">
        <Radar className="h-5 w-5" />
      </span>
      <span className="leading-tight">
        <span className="block text-sm font-semibold">Scanline</span>
        <span className="block text-xs text-muted-foreground">Admin Console</span>
      </span>
    </Link>
  );
}

/**
 * The sidebar's entries, dense enough that all of them show in a 1280x800 window. Where they still
 * do not fit (a short window, a large font), a fade and an arrow at the bottom say the list scrolls.
 */
function SidebarNav({ onNavigate }: { onNavigate: () => void }) {
  const { pathname } = useLocation();
  const [nav, setNav] = useState<HTMLElement | null>(null);
  const moreBelow = useMoreBelow(nav);
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <nav ref={setNav} aria-label="Admin" className="flex-1 overflow-y-auto px-2 py-2">
        <ul className="flex flex-col">
          {ADMIN_NAV.map((item) => (
            <li key={item.path}>
              <SidebarLink item={item} active={isNavItemActive(item, pathname)} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      </nav>
      {moreBelow && (
        <div
          data-testid="sidebar-more-below"
          className="pointer-events-none absolute inset-x-0 bottom-0 flex h-10 items-end justify-center bg-gradient-to-t from-card to-transparent pb-1"
        >
          <ChevronDown className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
        </div>
      )}
    </div>
  );
}

/** Whether `element` has more to scroll to below what shows (kept up to date on scroll and resize). */
function useMoreBelow(element: HTMLElement | null): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    if (!element) return;
    const measure = () => setMore(element.scrollTop + element.clientHeight < element.scrollHeight - 1);
    measure();
    // The list's height follows the window's: its resizes are the ones that matter.
    element.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      element.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [element]);
  return more;
}

function SidebarLink({
  item,
  active,
  onNavigate,
}: {
  item: AdminNavItem;
  active: boolean;
  onNavigate: () => void;
}) {
  const Icon = item.icon;
  return (
    <Link
      to={item.path}
      onClick={onNavigate}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'group flex items-start gap-2.5 rounded-md px-2.5 py-0.5 transition-colors',
        active
          ? 'bg-primary/15 text-foreground ring-1 ring-primary/40'
          : 'text-muted-foreground hover:bg-accent hover:text-foreground',
      )}
    >
      <Icon
        className={cn('mt-px h-4 w-4 shrink-0', active ? 'text-primary' : 'group-hover:text-foreground')}
      />
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2 text-[13px] font-medium leading-[18px]">
          {item.label}
          {item.badge && <NavBadge badge={item.badge} />}
        </span>
        {/* Wraps rather than being cut: the descriptions are short enough for one line. */}
        <span className="block text-[11px] leading-4 text-muted-foreground">{item.description}</span>
      </span>
    </Link>
  );
}

function NavBadge({ badge }: { badge: 'LIVE' | 'NEW' }) {
  if (badge === 'LIVE') return <FleetLiveBadge />;
  return (
    // blue-300, not the primary blue: 10 px text needs 4.5:1 on the active entry's tinted background too.
    <Badge
      variant="outline"
      className="border-primary/40 bg-primary/15 px-1.5 py-0 text-[10px] text-blue-300"
    >
      NEW
    </Badge>
  );
}

/** Live Monitoring's LIVE badge says the fleet's state: LIVE only while it is live. */
function FleetLiveBadge() {
  return <FleetStateBadge view={useFleetCondition()} />;
}

function SidebarFooter() {
  const logout = useAdminLogout();
  // Signing out leaves the screen too: unsaved edits are asked about first.
  const leaving = useConfirmLeavingUnsavedWork();
  return (
    <div className="flex shrink-0 flex-col gap-2 border-t p-3">
      <RealtimeStatus />
      {/* One row for the two, so every sidebar entry still fits a 1280x800 window. */}
      <div className="flex gap-2">
        <Button variant="outline" size="sm" className="flex-1" asChild>
          <Link to="/" reloadDocument>
            <ExternalLink />
            Back to public site
          </Link>
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="w-8 shrink-0 px-0"
          aria-label="Logout"
          title="Logout"
          onClick={() => leaving.confirm(() => logout.mutate())}
          disabled={logout.isPending}
        >
          {logout.isPending ? <LoaderCircle className="animate-spin" /> : <LogOut />}
        </Button>
      </div>
      {leaving.dialog}
    </div>
  );
}
