import { Navigate } from 'react-router';
import { useDarkDocument } from '@/components/use-dark-document.ts';
import { ADMIN_HOME, useAdminSession } from '../shared/admin-session.ts';
import { CheckingAuthentication } from './checking-authentication.tsx';
import { AdminLoginScreen } from './login-form.tsx';

/** /admin/login: the sign-in form, or straight to the dashboard when a session is already open. */
export default function AdminLoginPage() {
  useDarkDocument();
  const session = useAdminSession();
  // Unreachable before any answer: the form, whose sign-in says the connection failed.
  if (session.state === 'unknown' && !session.offline) return <CheckingAuthentication />;
  if (session.state === 'authenticated') return <Navigate to={ADMIN_HOME} replace />;
  return <AdminLoginScreen />;
}
