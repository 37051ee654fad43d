import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/http.js';
import { useCreateClient } from '../api/queries.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { TextField } from './TextField.js';
import { FormActions } from './FormActions.js';

const FIELD_NAMES = ['name', 'industry', 'website'] as const;
type FieldName = (typeof FIELD_NAMES)[number];

// Only what the form can know by itself; lengths and formats are the server's schema, whose answer shows under the field.
function problemOf(field: FieldName, value: string): string | null {
  return field === 'name' && value.trim() === '' ? 'Enter the client’s name.' : null;
}

/** Admin: a new client, validated as the user types, shown in the list as soon as the server has it. */
export function CreateClientDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (name: string) => void }) {
  const create = useCreateClient();
  const [values, setValues] = useState<Record<FieldName, string>>({ name: '', industry: '', website: '' });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});

  const serverProblems: Partial<Record<FieldName, string>> = {};
  if (create.error instanceof ApiError) {
    for (const detail of create.error.details) {
      const field = detail.path.replace(/^\//, '').split('/')[0] as FieldName;
      if ((FIELD_NAMES as readonly string[]).includes(field)) serverProblems[field] = detail.message;
    }
  }
  const problems = Object.fromEntries(FIELD_NAMES.map((field) => [field, problemOf(field, values[field])])) as Record<
    FieldName,
    string | null
  >;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, industry: true, website: true });
    if (Object.values(problems).some((problem) => problem !== null)) return;
    const name = values.name.trim();
    create.mutate(
      { name, industry: values.industry.trim() || null, website: values.website.trim() || null },
      { onSuccess: () => onCreated(name) },
    );
  };

  const field = (name: FieldName, label: string, hint?: string) => {
    const problem = (touched[name] ? problems[name] : null) ?? serverProblems[name];
    return (
      <TextField
        label={
          <>
            {label}
            {name !== 'name' && <span className="muted"> (optional)</span>}
          </>
        }
        name={name}
        value={values[name]}
        autoFocus={name === 'name'}
        required={name === 'name'}
        onValue={(value) => setValues({ ...values, [name]: value })}
        onBlur={() => setTouched({ ...touched, [name]: true })}
        hint={hint}
        error={problem}
      />
    );
  };

  return (
    <Dialog title="New client" onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        {create.error && !Object.keys(serverProblems).length && <ErrorNotice error={create.error} />}
        {field('name', 'Name', 'The client or brand, as your team calls it.')}
        {field('industry', 'Industry', 'For example: Restaurants, Retail, Dental clinics.')}
        {field('website', 'Website', 'The primary domain, for example example.com.')}
        <FormActions action={['Create client', 'Creating…']} busy={create.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
