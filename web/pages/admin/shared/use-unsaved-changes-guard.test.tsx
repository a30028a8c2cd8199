import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderAt } from './test-utils.tsx';
import {
  UnsavedWorkProvider,
  useConfirmLeavingUnsavedWork,
  useUnsavedChangesGuard,
} from './use-unsaved-changes-guard.tsx';

/** A screen with a one-field draft, a save that clears it, and a link away. */
function DraftScreen() {
  const [draft, setDraft] = useState('');
  const leaveQuestion = useUnsavedChangesGuard(draft !== '');
  return (
    <>
      <label>
        Draft
        <input value={draft} onChange={(event) => setDraft(event.target.value)} />
      </label>
      <button type="button" onClick={() => setDraft('')}>
        Save
      </button>
      <Link to="/admin/dashboard">Dashboard</Link>
      <Link to="/admin/draft?tab=preview">Same screen</Link>
      {leaveQuestion}
    </>
  );
}

const currentPath = () => screen.getByTestId('current-path').textContent;
const typeDraft = (text: string) =>
  fireEvent.change(screen.getByLabelText('Draft'), { target: { value: text } });

function beforeUnloadIsRefused(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useUnsavedChangesGuard', () => {
  it('lets the admin leave freely while nothing is unsaved', async () => {
    renderAt(<DraftScreen />, '/admin/draft');
    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(beforeUnloadIsRefused()).toBe(false);
  });

  it("asks 'Leave without saving?' on a link away: Stay keeps the edit, Leave goes", async () => {
    renderAt(<DraftScreen />, '/admin/draft');
    typeDraft('half-typed');
    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));

    const question = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(currentPath()).toBe('/admin/draft');
    expect((screen.getByLabelText('Draft') as HTMLInputElement).value).toBe('half-typed');

    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/dashboard'));
  });

  it('asks on browser back too', async () => {
    const { router } = renderAt(<DraftScreen />, '/admin/dashboard');
    await act(() => router.navigate('/admin/draft'));
    typeDraft('half-typed');
    await act(() => router.navigate(-1));
    await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(currentPath()).toBe('/admin/draft');
  });

  it('does not ask for a change within the same screen (query string), nor after a save', async () => {
    renderAt(<DraftScreen />, '/admin/draft');
    typeDraft('half-typed');
    fireEvent.click(screen.getByRole('link', { name: 'Same screen' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('makes the browser ask before closing or reloading the tab while the edit is unsaved', () => {
    renderAt(<DraftScreen />, '/admin/draft');
    expect(beforeUnloadIsRefused()).toBe(false);
    typeDraft('half-typed');
    expect(beforeUnloadIsRefused()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(beforeUnloadIsRefused()).toBe(false);
  });
});

/** The shell's sign-out button, as the sidebar uses it. */
function SignOut({ onSignOut }: { onSignOut: () => void }) {
  const leaving = useConfirmLeavingUnsavedWork();
  return (
    <>
      <button type="button" onClick={() => leaving.confirm(onSignOut)}>
        Logout
      </button>
      {leaving.dialog}
    </>
  );
}

describe('useConfirmLeavingUnsavedWork', () => {
  it('signs out at once without unsaved work, and asks first with it', async () => {
    let signedOut = 0;
    renderAt(
      <UnsavedWorkProvider>
        <SignOut onSignOut={() => signedOut++} />
        <DraftScreen />
      </UnsavedWorkProvider>,
      '/admin/draft',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(signedOut).toBe(1);

    typeDraft('half-typed');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const question = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(signedOut).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    expect(signedOut).toBe(2);
  });
});
