import {
  Activity,
  Bell,
  BrainCircuit,
  FileCode,
  FolderOpen,
  Key,
  KeyRound,
  LayoutDashboard,
  LayoutTemplate,
  type LucideIcon,
  Receipt,
  Server,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Ticket,
} from 'lucide-react';

export interface AdminNavItem {
  label: string;
  /** One line under the label: short enough to fit the sidebar whole (it wraps, never is cut). */
  description: string;
  path: string;
  icon: LucideIcon;
  badge?: 'LIVE' | 'NEW';
}

/**
 * The sidebar, in the spec's order. License Keys, which the spec's list leaves out, sits with the
 * other licensing screens after Redemption Codes. Hardware bindings is routed but deliberately absent.
 */
export const ADMIN_NAV: readonly AdminNavItem[] = [
  {
    label: 'Dashboard',
    description: 'Overview and key metrics',
    path: '/admin/dashboard',
    icon: LayoutDashboard,
  },
  {
    label: 'Live Monitoring',
    description: 'Bots, hops and finds, live',
    path: '/admin/live-monitoring',
    icon: Activity,
    badge: 'LIVE',
  },
  {
    label: 'Server Pool',
    description: 'Servers handed out to bots',
    path: '/admin/server-pool',
    icon: Server,
    badge: 'NEW',
  },
  {
    label: 'Live Configuration',
    description: 'Bot settings, emergency stop',
    path: '/admin/configuration',
    icon: SlidersHorizontal,
    badge: 'NEW',
  },
  {
    label: 'Notifications',
    description: 'Finds posted to Discord',
    path: '/admin/notifications',
    icon: Bell,
    badge: 'NEW',
  },
  {
    label: 'Orders',
    description: 'Paid orders and their codes',
    path: '/admin/orders',
    icon: Receipt,
    badge: 'NEW',
  },
  {
    label: 'System Configuration',
    description: 'Slot capacity and payment wallets',
    path: '/admin/system-configuration',
    icon: Settings,
  },
  {
    label: 'Redemption Codes',
    description: 'Create and track codes',
    path: '/admin/redemption-keys',
    icon: Ticket,
  },
  {
    label: 'License Keys',
    description: 'Issue and revoke keys',
    path: '/admin/license-keys',
    icon: Key,
  },
  {
    label: 'Security & Analytics',
    description: 'Audit logs and rate limits',
    path: '/admin/security',
    icon: ShieldCheck,
  },
  {
    label: 'Script Management',
    description: 'Edit and deploy scripts',
    path: '/admin/script-management',
    icon: FileCode,
  },
  {
    label: 'Scripts Page Editor',
    description: 'The public scripts page',
    path: '/admin/scripts-page-editor',
    icon: LayoutTemplate,
    badge: 'NEW',
  },
  {
    label: 'File Manager',
    description: 'Upload and remove files',
    path: '/admin/file-manager',
    icon: FolderOpen,
  },
  {
    label: 'Script Keys',
    description: 'Keys for premium scripts',
    path: '/admin/script-keys',
    icon: KeyRound,
  },
  {
    label: 'AI Debugging',
    description: 'Health report and advice',
    path: '/admin/ai-debugging',
    icon: BrainCircuit,
    badge: 'NEW',
  },
];

/** Whether a sidebar entry is the current screen (/admin itself is the dashboard). */
export function isNavItemActive(item: AdminNavItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (item.path === '/admin/dashboard' && path === '/admin') return true;
  return path === item.path || path.startsWith(`${item.path}/`);
}
