import type { ResourceListItemView, ResourceTableView, ResourceView } from '@formcast/contracts';
import type { ContentTable, Resource } from './records';

export function toResourceListItemView(resource: Resource): ResourceListItemView {
  return {
    id: resource.id,
    original_filename: resource.originalFilename,
    version: resource.version,
    description: resource.description,
  };
}

function toTableView(table: ContentTable): ResourceTableView {
  return {
    table_name: table.tableName,
    original_sheet_name: table.sheetName,
    table_id: table.id,
    columns: table.columns.map((column) => ({
      column_name: column.name,
      column_number: column.number,
      column_id: column.id,
    })),
  };
}

/** The describe shape, keys in the order the real product sends them. */
export function toResourceView(resource: Resource): ResourceView {
  return {
    id: resource.id,
    identifier: resource.identifier,
    original_filename: resource.originalFilename,
    version: resource.version,
    description: resource.description,
    generated_content_summary: resource.contentSummary.map(toTableView),
  };
}
