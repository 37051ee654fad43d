import { useEffect, useRef, type ReactNode } from 'react';

/** A step's heading: focus moves to it when the step opens, so a screen reader starts there. */
export function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // After the dialog's own first focus (showModal), which runs after this child's effect.
    const frame = requestAnimationFrame(() => ref.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <h3 ref={ref} tabIndex={-1} className="step-heading" data-testid="step-heading">
      {children}
    </h3>
  );
}
