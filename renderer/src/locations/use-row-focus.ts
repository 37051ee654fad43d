import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { SelectHow } from './use-selection.js';

const rowIndexOf = (target: EventTarget | null): number | null => {
  const row = target instanceof Element ? target.closest<HTMLElement>('[data-index]') : null;
  return row ? Number(row.dataset.index) : null;
};

/**
 * Roving focus over a virtual list of rows (WAI-ARIA grid pattern, row by row): one row is the Tab
 * stop, arrows, Page Up / Down, Home and End move it (scrolling it into view first), Enter opens it,
 * Space chooses it (Shift+Space: every row from the last one chosen). A click opens a row (and starts a
 * range there); with Ctrl or ⌘ it chooses it, with Shift it chooses the range.
 * `scope` changes with the shown rows (filter, sort): the Tab stop goes back to the first row.
 */
export function useRowFocus({
  count,
  virtualizer,
  body,
  pageRows,
  scope,
  onOpen,
  onSelect,
}: {
  count: number;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  body: RefObject<HTMLDivElement | null>;
  pageRows: () => number;
  scope: string;
  onOpen: (index: number) => void;
  onSelect: (index: number, how: SelectHow) => void;
}) {
  const [active, setActive] = useState(0);
  const [activeScope, setActiveScope] = useState(scope);
  if (activeScope !== scope) {
    setActiveScope(scope);
    setActive(0);
  }
  const wantFocus = useRef(false);
  const current = Math.max(0, Math.min(active, count - 1));

  // The row to focus may only be drawn after the scroll: focus it on the first render that has it.
  useEffect(() => {
    if (!wantFocus.current) return;
    const row = body.current?.querySelector<HTMLElement>(`[data-index="${current}"]`);
    if (!row) return;
    wantFocus.current = false;
    row.focus({ preventScroll: true });
  });

  const moveTo = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(index, count - 1));
      wantFocus.current = true;
      setActive(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [count, virtualizer],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Keys belong to the row only when the row itself has focus.
    const row = event.target as HTMLElement;
    if (row.getAttribute('role') !== 'row' || row.dataset.index === undefined) return;
    const index = Number(row.dataset.index);
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (event.key === 'Enter') onOpen(index);
      else onSelect(index, event.shiftKey ? 'range' : 'toggle');
      return;
    }
    const page = pageRows();
    const targets: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: count - 1,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(target);
  };

  const onClick = (event: MouseEvent<HTMLElement>) => {
    const index = rowIndexOf(event.target);
    if (index === null) return;
    setActive(index);
    const how = event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'anchor';
    onSelect(index, how);
    if (how === 'anchor') onOpen(index);
  };

  const onFocus = (event: { target: EventTarget }) => {
    const index = rowIndexOf(event.target);
    if (index !== null) setActive(index);
  };

  return { active: current, onKeyDown, onClick, onFocus };
}
