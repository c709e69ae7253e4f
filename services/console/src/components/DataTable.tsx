import type { ComponentChildren } from 'preact';
import { TableHead } from './TableHead';

/** A table of `items`, one row each (`row` gives its `<tr>`, keyed), scrolling sideways on a narrow screen; see TableHead for `columns` and `actions`. */
export function DataTable<T>({
  label,
  columns,
  actions,
  items,
  row,
}: {
  label: string;
  columns: string[];
  actions?: boolean;
  items: T[];
  row: (item: T) => ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table aria-label={label}>
        <TableHead columns={columns} actions={actions} />
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
