import type { ResourceListItemView, ResourceTableView, ResourceView } from '@formcast/contracts';
import { buildXml, xmlArray, xmlInteger } from '@formcast/xml-writing';

/** A described resource with its processing status, as the v3 describe shows it. */
export type ResourceWithStatusView = ResourceView & { status: string };

function listItemElement(resource: ResourceListItemView): Record<string, unknown> {
  return {
    id: xmlInteger(resource.id),
    original_filename: resource.original_filename,
    version: xmlInteger(resource.version),
    description: resource.description,
  };
}

function tableElement(table: ResourceTableView): Record<string, unknown> {
  return {
    table_name: table.table_name,
    original_sheet_name: table.original_sheet_name,
    table_id: table.table_id,
    columns: xmlArray(
      'column',
      table.columns.map((column) => ({
        column_name: column.column_name,
        column_number: xmlInteger(column.column_number),
        column_id: column.column_id,
      })),
    ),
  };
}

/** `<resources type="array"><resource><id/><original_filename/><version/><description/>…`, underscored names as the v3 docs show. */
export function renderResourcesXml(resources: ResourceListItemView[]): string {
  return buildXml('resources', xmlArray('resource', resources.map(listItemElement)));
}

/**
 * `<resource>…<generated_content_summary><tables><table><table_name/><table_id/><columns><column>…
 * <status>Ready</status>`: the summary's tables nest in one element, as documented; the
 * status comes last, as in JSON.
 */
export function renderResourceXml(resource: ResourceWithStatusView): string {
  return buildXml('resource', {
    id: xmlInteger(resource.id),
    identifier: resource.identifier,
    original_filename: resource.original_filename,
    version: xmlInteger(resource.version),
    description: resource.description,
    generated_content_summary: { tables: xmlArray('table', resource.generated_content_summary.map(tableElement)) },
    status: resource.status,
  });
}
