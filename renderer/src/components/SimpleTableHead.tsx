/** A simple table's header row: one column per label, then an unlabelled-on-screen "Actions" column. */
export function SimpleTableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((label) => (
          <th key={label} scope="col">
            {label}
          </th>
        ))}
        <th scope="col">
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
