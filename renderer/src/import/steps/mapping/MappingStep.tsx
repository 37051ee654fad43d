import { ColumnMapper } from '../../../components/ColumnMapper.js';
import { ErrorNotice } from '../../../components/ErrorNotice.js';
import { plural } from '../../../format.js';
import type { TextEncodingName } from '../../encodings.js';
import { nameColumnOf, type ColumnTarget } from '../../header-mapping.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** Step 2: the columns beside the fields they feed. */
export function MappingStep({
  step,
  onRemap,
  onEncoding,
  onAnother,
  onCheck,
}: {
  step: Extract<Step, { kind: 'mapping' }>;
  onRemap: (column: number, target: ColumnTarget) => void;
  onEncoding: (encoding: TextEncodingName) => void;
  onAnother: () => void;
  onCheck: () => void;
}) {
  return (
    <>
      <StepHeading>Match the columns of {step.fileName}</StepHeading>
      <ErrorNotice error={step.error} />
      <ColumnMapper
        file={step.file}
        mapping={step.mapping}
        check={step.mappingCheck}
        onRemap={onRemap}
        onEncoding={onEncoding}
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onAnother}>
          Choose another file
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={nameColumnOf(step.mapping) < 0}
          onClick={onCheck}
        >
          Check {plural(step.file.rowCount, 'row')}
        </button>
      </div>
    </>
  );
}
