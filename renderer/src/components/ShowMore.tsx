/** How many rows a long list of the preview shows at a time. */
export const PAGE = 100;

/** Long lists show a page at a time; this button shows the next one. */
export function ShowMore({ total, shown, onMore }: { total: number; shown: number; onMore: (shown: number) => void }) {
  if (total <= shown) return null;
  return (
    <button type="button" className="button" onClick={() => onMore(shown + PAGE)}>
      Show {Math.min(PAGE, total - shown)} more
    </button>
  );
}
