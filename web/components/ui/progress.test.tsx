import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Progress } from './progress.tsx';

describe('Progress', () => {
  it('is a progressbar named by its label, with its value, 0 and 100 for assistive technology', () => {
    render(<Progress value={42} aria-label="Upload progress" />);
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
    expect(bar.getAttribute('aria-valuetext')).toBe('42%');
  });

  it('reads a value out of range as the nearest end', () => {
    render(<Progress value={140} aria-label="Slot utilization" />);
    expect(screen.getByRole('progressbar', { name: 'Slot utilization' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
  });

  it('says what is going on while the amount is unknown, without a made-up number', () => {
    render(
      <Progress
        value={null}
        aria-label="Upload progress"
        aria-valuetext="Checking the script on the server..."
      />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    expect(bar.getAttribute('aria-valuetext')).toBe('Checking the script on the server...');
    expect(bar.getAttribute('data-state')).toBe('indeterminate');
  });
});
