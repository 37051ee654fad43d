/** A labelled progress bar; without a total it shows that work goes on without saying how far. */
export function ProgressBar({
  label,
  done,
  total,
  detail,
}: {
  label: string;
  done: number;
  total: number;
  detail?: string;
}) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : null;
  return (
    <div className="progress" data-testid="progress">
      <div className="progress-label">
        <span>{label}</span>
        <span className="muted">{detail ?? (percent === null ? '' : `${percent}%`)}</span>
      </div>
      <progress max={100} value={percent ?? undefined} aria-label={label} />
    </div>
  );
}
