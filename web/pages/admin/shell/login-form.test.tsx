import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import { ADMIN_SESSION_KEY } from '../shared/admin-session.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { AdminLoginForm } from './login-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function submitWith(secret: string) {
  fireEvent.change(screen.getByLabelText('Admin Secret'), { target: { value: secret } });
  fireEvent.click(screen.getByRole('button', { name: 'Access Dashboard' }));
}

describe('AdminLoginForm', () => {
  it('refuses an empty or blank secret without calling the server', async () => {
    const fetchMock = mockFetch({});
    renderAt(<AdminLoginForm />, '/admin/login');
    fireEvent.click(screen.getByRole('button', { name: 'Access Dashboard' }));
    expect(await screen.findByText('Admin secret is required')).toBeTruthy();
    submitWith('   ');
    await waitFor(() => expect(screen.getByText('Admin secret is required')).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says 'Invalid admin secret' when the server rejects the secret", async () => {
    mockFetch({ 'POST /api/admin/login': () => json({ error: 'nope' }, 401) });
    renderAt(<AdminLoginForm />, '/admin/login');
    submitWith('wrong');
    expect(await screen.findByText('Invalid admin secret')).toBeTruthy();
  });

  it("shows the server's error for other failures, else 'Login failed'", async () => {
    mockFetch({
      'POST /api/admin/login': () =>
        json({ error: 'Too many failed login attempts. Try again in 15 minutes.' }, 429),
    });
    renderAt(<AdminLoginForm />, '/admin/login');
    submitWith('again');
    expect(await screen.findByText('Too many failed login attempts. Try again in 15 minutes.')).toBeTruthy();

    mockFetch({ 'POST /api/admin/login': () => new Response('<html>oops</html>', { status: 502 }) });
    submitWith('again-2');
    expect(await screen.findByText('Login failed')).toBeTruthy();
  });

  it("says 'Connection error. Please try again.' when the request cannot be sent", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderAt(<AdminLoginForm />, '/admin/login');
    submitWith('secret');
    expect(await screen.findByText('Connection error. Please try again.')).toBeTruthy();
  });

  it('sends the secret, marks the session authenticated and goes to the dashboard', async () => {
    const fetchMock = mockFetch({ 'POST /api/admin/login': () => json({ success: true }) });
    const { queryClient } = renderAt(<AdminLoginForm />, '/admin/login', '/admin/login');
    submitWith('the-secret');
    await waitFor(() => expect(screen.getByTestId('current-path').textContent).toBe('/admin/dashboard'));
    expect(queryClient.getQueryData(ADMIN_SESSION_KEY)).toBe(true);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.credentials).toBe('include');
    expect(JSON.parse(String(init?.body))).toEqual({ adminSecret: 'the-secret' });
  });

  it('toggles the secret between hidden and shown', () => {
    mockFetch({});
    renderAt(<AdminLoginForm />, '/admin/login');
    const field = screen.getByLabelText('Admin Secret');
    expect(field.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show secret' }));
    expect(field.getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide secret' }));
    expect(field.getAttribute('type')).toBe('password');
  });
});
