/** A determinate bar; indeterminate (a moving stripe) while the total is still unknown. */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : null;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total || undefined}
      aria-valuenow={total > 0 ? done : undefined}
    >
      <div
        className={percent === null ? 'progress-fill indeterminate' : 'progress-fill'}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}
