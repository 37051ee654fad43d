/**
 * A way past the table's column headers, each a sort button and a width handle (18 Tab stops): shown
 * only while it has the focus, it takes the focus to the rows' Tab stop (the row last focused, or the
 * first shown), where the arrows and Enter work.
 */
export function SkipToRows() {
  const toRows = () =>
    document.querySelector<HTMLElement>('[data-testid="locations-scroll"] [role="row"][tabindex="0"]')?.focus();
  return (
    <button type="button" className="skip-to-rows button button-quiet" onClick={toRows}>
      Skip to the rows
    </button>
  );
}
