import type { ImportProgress, StepKind } from '../import/steps/step.js';
import { formatCount, plural } from '../format.js';
import { ProgressBar } from './ProgressBar.js';

const STAGE_LABELS = {
  reading: 'Reading the file',
  parsing: 'Reading the rows',
  checking: 'Checking the rows with the server',
  importing: 'Importing',
} as const;

/** A long step under way: which stage, and for the requests how far through the rows. */
export function ProgressView({ progress, fallback }: { progress: ImportProgress | null; fallback: string }) {
  if (!progress) return <ProgressBar label={fallback} done={0} total={0} />;
  const { stage, done, total, request } = progress;
  const rows = stage === 'checking' || stage === 'importing';
  const detail = rows
    ? `${request && request.count > 1 ? `Request ${request.index + 1} of ${request.count} · ` : ''}${formatCount(done)} of ${plural(total, 'row')}`
    : undefined;
  return <ProgressBar label={STAGE_LABELS[stage]} done={done} total={total} detail={detail} />;
}

const STEPS = ['File', 'Columns', 'Preview', 'Import'] as const;
const STEP_INDEX: Record<StepKind, number> = {
  file: 0,
  reading: 0,
  sheet: 0,
  mapping: 1,
  checking: 2,
  preview: 2,
  importing: 3,
  done: 3,
  cancelled: 3,
};

/** The four steps of an import, the current one marked. */
export function ImportSteps({ step }: { step: StepKind }) {
  const current = STEP_INDEX[step];
  return (
    <ol className="steps" aria-label="Import steps">
      {STEPS.map((label, index) => (
        <li
          key={label}
          className={index === current ? 'step-current' : index < current ? 'step-done' : ''}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="step-number">{index + 1}</span> {label}
        </li>
      ))}
    </ol>
  );
}
