import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type UploadOptions, uploadWithProgress } from '@/lib/upload.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { UploadScriptCard } from './upload-script-card.tsx';

vi.mock('@/lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/toast.ts')>()),
  toast: vi.fn(),
}));
// The test plays the server's side of the upload (the XHR is tested in web/lib/upload.test.ts).
vi.mock('@/lib/upload.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/upload.ts')>()),
  uploadWithProgress: vi.fn(),
}));

afterEach(() => {
  vi.mocked(uploadWithProgress).mockReset();
});

describe('UploadScriptCard', () => {
  it('shows the upload as a labelled progressbar: the percent sent, then the server check', async () => {
    const user = userEvent.setup();
    let options: UploadOptions | undefined;
    vi.mocked(uploadWithProgress).mockImplementationOnce((_url, _form, given) => {
      options = given;
      return new Promise(() => {});
    });
    renderAt(<UploadScriptCard />, '/admin/file-manager');
    await user.upload(screen.getByLabelText('Script file (.lua)'), new File(['print(1)\n'], 'farm.lua'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    act(() => options?.onProgress?.(0.42));
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
    expect(bar.getAttribute('aria-valuetext')).toBe('Sending 42%');
    expect(screen.getByText('Sending 42%')).toBeTruthy();

    // Every byte is sent; how long the server's syntax check takes is unknown.
    act(() => options?.onProgress?.(1));
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    expect(bar.getAttribute('aria-valuetext')).toBe('Checking the script on the server...');
    expect(screen.getByText('Checking the script on the server...')).toBeTruthy();
  });
});
