/**
 * A table's header row: one column a name, and, unless `actions` is false, a last, unnamed one
 * (read out as "Actions") for the row's buttons.
 */
export function TableHead({ columns, actions = true }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th scope="col" key={column}>
            {column}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
