import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from '../locations/column-widths.js';

// One arrow press moves a column edge by this much; with Shift, four times as much.
const STEP = 16;

/**
 * The right edge of a column header, a window-splitter widget: drag it with the pointer, double-click
 * it to fit the column to what it shows (as a spreadsheet does), or focus it and press Left / Right
 * (Shift for bigger steps), Home for the narrowest, End for the widest, Enter for the usual width.
 */
export function ColumnResizeHandle({
  label,
  width,
  onResize,
  onFit,
  tabbable = true,
}: {
  label: string;
  width: number;
  onResize: (width: number | null) => void;
  onFit: () => void;
  /** In the tab order: in a header row of one tab stop, only the edge of the column whose header has it. */
  tabbable?: boolean;
}) {
  const drag = useRef<{ x: number; width: number } | null>(null);

  const down = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, width };
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) onResize(drag.current.width + event.clientX - drag.current.x);
  };
  const up = () => {
    drag.current = null;
  };
  const key = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? STEP * 4 : STEP;
    const next: Record<string, number | null> = {
      ArrowLeft: width - step,
      ArrowRight: width + step,
      Home: MIN_COLUMN_WIDTH,
      End: MAX_COLUMN_WIDTH,
      Enter: null,
    };
    if (!(event.key in next)) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(next[event.key] ?? null);
  };

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Width of the ${label} column`}
      aria-valuenow={width}
      aria-valuemin={MIN_COLUMN_WIDTH}
      aria-valuemax={MAX_COLUMN_WIDTH}
      tabIndex={tabbable ? 0 : -1}
      className="column-resizer"
      title="Drag to widen or narrow; double-click to fit the longest value shown"
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onDoubleClick={onFit}
      onKeyDown={key}
    />
  );
}
