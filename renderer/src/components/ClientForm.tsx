import { Fragment, useState, type FormEvent } from 'react';
import { CreateClientBody } from '../../../server/clients/schemas.js';
import { isWebsite } from '../../../server/locations/website.js';
import { useClients } from '../api/queries.js';
import type { ClientRow, NewClient } from '../api/types.js';
import { Link, paths } from '../router.js';
import { useFieldCheck } from '../forms/use-field-check.js';
import { ErrorNotice } from './ErrorNotice.js';
import { TextField } from './TextField.js';
import { FormActions } from './FormActions.js';

const FIELDS = ['name', 'industry', 'website'] as const;
type FieldName = (typeof FIELDS)[number];

const LABELS: Record<FieldName, [label: string, hint: string]> = {
  name: ['Name', 'The client or brand, as your team calls it.'],
  industry: ['Industry', 'For example: Restaurants, Retail, Dental clinics.'],
  website: ['Website', 'The primary domain, for example example.com.'],
};

/** A client's name, industry and website, checked against the server's schema before they are sent. */
export function ClientForm({
  initial,
  action,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: ClientRow;
  action: [idle: string, busy: string];
  busy: boolean;
  error: unknown;
  onSubmit(body: NewClient & { name: string }): void;
  onCancel(): void;
}) {
  const [values, setValues] = useState<Record<FieldName, string>>({
    name: initial?.name ?? '',
    industry: initial?.industry ?? '',
    website: initial?.website ?? '',
  });
  const body = {
    name: values.name.trim(),
    industry: values.industry.trim() || null,
    website: values.website.trim() || null,
  };
  // Lengths are the schema's; "not blank" and the website's form (server/locations/website.ts) are the
  // server's rules too, said here before sending, each field's problem found at once.
  const fields = useFieldCheck(CreateClientBody, body, error, FIELDS, {
    name: body.name === '' ? 'Enter the client’s name.' : null,
    website:
      body.website !== null && !isWebsite(body.website)
        ? 'Enter a domain such as example.com, or an address that starts with http:// or https://.'
        : null,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.check()) onSubmit(body);
  };

  return (
    <form onSubmit={submit} noValidate className="form">
      {!fields.shownAtFields && <ErrorNotice error={error} />}
      {FIELDS.map((name) => (
        <Fragment key={name}>
          <TextField
            label={
              <>
                {LABELS[name][0]}
                {name !== 'name' && <span className="muted"> (optional)</span>}
              </>
            }
            name={name}
            value={values[name]}
            autoFocus={name === 'name'}
            required={name === 'name'}
            onValue={(value) => setValues({ ...values, [name]: value })}
            hint={LABELS[name][1]}
            error={fields.problemOf(name)}
          />
          {name === 'name' && <SameNameNotice name={body.name} except={initial?.id} />}
        </Fragment>
      ))}
      <FormActions action={action} busy={busy} onCancel={onCancel} />
    </form>
  );
}

/** A name as people tell clients apart: its case and its spaces do not count. */
function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}

/**
 * Another client of the same name (a walk made a second "Northwind" without a word): said under the name,
 * with a link to it. Two clients may share a name (the API takes it, as the spec does), so it does not
 * stop the form.
 */
function SameNameNotice({ name, except }: { name: string; except: string | undefined }) {
  const clients = useClients();
  const key = nameKey(name);
  const twin =
    key === '' ? undefined : clients.data?.find((client) => client.id !== except && nameKey(client.name) === key);
  if (twin === undefined) return null;
  return (
    <p className="notice notice-warning" role="status" data-testid="same-name">
      Another client is named <strong>{twin.name}</strong>: <Link to={paths.client(twin.id)}>open it</Link>, or go on to
      have two of that name.
    </p>
  );
}
