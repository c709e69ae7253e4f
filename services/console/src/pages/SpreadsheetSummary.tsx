import type { ResourceDetail } from '../api/types';
import { DataTable } from '../components/DataTable';

/** A resource's description; for a spreadsheet, its tables and their columns as a table. */
export function SpreadsheetSummary({ resource }: { resource: ResourceDetail }) {
  const tables = resource.generated_content_summary ?? [];
  return (
    <div class="summary" aria-label={`Summary of ${resource.original_filename}`}>
      <p>
        <strong>{resource.original_filename}</strong> · version {resource.version}
        {resource.status ? ` · ${resource.status}` : ''}
      </p>
      {tables.length === 0 ? (
        <p class="muted">No spreadsheet summary: only .xlsx files get one.</p>
      ) : (
        <DataTable
          label="Spreadsheet summary"
          columns={['Table', 'Sheet', 'Columns']}
          actions={false}
          items={tables}
          row={(table) => (
            <tr key={table.table_name}>
              <td>{table.table_name}</td>
              <td>{table.original_sheet_name}</td>
              <td>{table.columns.map((c) => `${c.column_number}. ${c.column_name}`).join(', ') || '—'}</td>
            </tr>
          )}
        />
      )}
    </div>
  );
}
