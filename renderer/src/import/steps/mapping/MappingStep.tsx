import type { ReactNode } from 'react';
import { ErrorNotice } from '../../../components/ErrorNotice.js';
import { CheckButton } from '../../columns/CheckButton.js';
import { ColumnMapper } from '../../columns/ColumnMapper.js';
import type { TextEncodingName } from '../../encodings.js';
import type { ColumnOptions } from '../../columns/column-options.js';
import type { ColumnMapping } from '../../header-mapping.js';
import type { Step } from '../step.js';
import { StepHeading } from '../StepHeading.js';

/** Step 2: the columns beside the fields they feed. */
export function MappingStep({
  step,
  onMapping,
  onOptions,
  onEncoding,
  onAnother,
  onCheck,
  notice,
}: {
  step: Extract<Step, { kind: 'mapping' }>;
  onMapping: (mapping: ColumnMapping) => void;
  onOptions: (options: ColumnOptions) => void;
  onEncoding: (encoding: TextEncodingName) => void;
  onAnother: () => void;
  onCheck: () => void;
  /** A saved mapping applied, said above the columns. */
  notice?: ReactNode;
}) {
  return (
    <>
      <StepHeading>Match the columns of {step.fileName}</StepHeading>
      <ErrorNotice error={step.error} />
      {notice}
      <ColumnMapper
        file={step.file}
        mapping={step.mapping}
        check={step.mappingCheck}
        options={step.options}
        onMapping={onMapping}
        onOptions={onOptions}
        onEncoding={onEncoding}
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onAnother}>
          Choose another file
        </button>
        <CheckButton mapping={step.mapping} check={step.mappingCheck} rowCount={step.file.rowCount} onCheck={onCheck} />
      </div>
    </>
  );
}
