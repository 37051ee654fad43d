import { Choice } from './Choice.js';

export interface RadioOption<T extends string> {
  value: T;
  label: string;
  detail?: string;
}

/** One question answered by radio buttons, side by side where the width allows (an import's preview needs the height). */
export function RadioGroup<T extends string>({
  legend,
  name,
  options,
  value,
  disabled = false,
  className,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly RadioOption<T>[];
  value: T;
  disabled?: boolean;
  className?: string;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset disabled={disabled} className={className}>
      <legend>{legend}</legend>
      <div className="radio-row">
        {options.map((option) => (
          <Choice
            key={option.value}
            input={{
              type: 'radio',
              name,
              value: option.value,
              checked: value === option.value,
              onChange: () => onChange(option.value),
            }}
            name={option.label}
            help={option.detail}
            helpBelow
          />
        ))}
      </div>
    </fieldset>
  );
}
