import type { ComponentProps, ReactNode } from 'react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

/**
 * A select over a fixed list of values; each option shows `renderOption(value)`. The rest of the
 * props go to the trigger: its accessible name (`aria-label`) or the `id` a label points at.
 */
export function OptionSelect<T extends string>({
  value,
  options,
  onValueChange,
  renderOption,
  ...triggerProps
}: {
  value: T;
  options: readonly T[];
  onValueChange: (value: T) => void;
  renderOption: (option: T) => ReactNode;
} & Pick<ComponentProps<typeof SelectTrigger>, 'id' | 'aria-label' | 'onBlur'>) {
  return (
    // The select only offers `options`, so every value it reports is a T.
    <Select value={value} onValueChange={(next) => onValueChange(next as T)}>
      <SelectTrigger {...triggerProps}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option} value={option}>
            {renderOption(option)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
