import { Eye, EyeOff, Loader2, LockKeyhole, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { HeadingLevel } from '@/components/ui/heading-level.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import type { LoginRequest } from '../../../../common/auth.ts';
import { LOGIN_TEXTS } from '../../../../common/auth-texts.ts';
import { loginErrorMessage, useAdminLogin } from '../shared/admin-session.ts';

/**
 * The admin sign-in card: one secret field with a show/hide toggle. An empty or blank secret is
 * refused here ('Admin secret is required') without calling the server: LoginRequestSchema's rule,
 * checked by hand because zod would be a third of the login screen's code (issue 39: its first paint).
 */
export function AdminLoginForm() {
  const fieldId = useId();
  const errorId = useId();
  const [revealed, setRevealed] = useState(false);
  const login = useAdminLogin();
  const form = useForm<LoginRequest>({ defaultValues: { adminSecret: '' } });

  const submit = form.handleSubmit(({ adminSecret }) => {
    login.mutate(adminSecret.trim());
  });

  const message =
    form.formState.errors.adminSecret?.message ?? (login.isError ? loginErrorMessage(login.error) : null);

  return (
    <Card className="w-full max-w-md border-border/70 bg-card/80 shadow-2xl backdrop-blur">
      <CardHeader className="items-center text-center">
        <div className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-primary/15 text-primary">
          <ShieldCheck className="h-6 w-6" />
        </div>
        <CardTitle className="text-2xl">Scanline Admin</CardTitle>
        <CardDescription>Enter the admin secret to open the control panel.</CardDescription>
      </CardHeader>
      <form onSubmit={submit} noValidate>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={fieldId}>Admin Secret</Label>
            <div className="relative">
              <LockKeyhole className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                id={fieldId}
                type={revealed ? 'text' : 'password'}
                autoComplete="current-password"
                autoFocus
                className="pl-9 pr-11"
                placeholder="Enter admin secret"
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? errorId : undefined}
                disabled={login.isPending}
                {...form.register('adminSecret', {
                  validate: (value) => value.trim() !== '' || LOGIN_TEXTS.required,
                  onChange: () => login.isError && login.reset(),
                })}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="absolute right-1 top-1/2 h-8 w-8 -translate-y-1/2 text-muted-foreground"
                aria-label={revealed ? 'Hide secret' : 'Show secret'}
                aria-pressed={revealed}
                onClick={() => setRevealed((r) => !r)}
              >
                {revealed ? <EyeOff /> : <Eye />}
              </Button>
            </div>
          </div>
          {message && (
            <Alert variant="destructive" id={errorId} className="py-3">
              <AlertDescription>{message}</AlertDescription>
            </Alert>
          )}
          <Button type="submit" className="w-full" disabled={login.isPending}>
            {login.isPending && <Loader2 className="animate-spin" />}
            Access Dashboard
          </Button>
        </CardContent>
      </form>
      <CardFooter className="flex-col gap-2 text-center text-xs text-muted-foreground">
        <p>Your admin session expires in 24 hours; sign in again after that.</p>
        <Link to="/" reloadDocument className="text-primary underline-offset-4 hover:underline">
          Back to the public site
        </Link>
      </CardFooter>
    </Card>
  );
}

/** The sign-in card centred on a full dark screen (the login page, and the admin area when signed out). */
export function AdminLoginScreen() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-background via-background to-primary/10 p-4">
      {/* The card is the whole page: its title is the page's h1. */}
      <HeadingLevel level={0}>
        <AdminLoginForm />
      </HeadingLevel>
    </main>
  );
}
