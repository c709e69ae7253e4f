import type { ContentTable, Resource } from '../domain/records';

/** The resources table's rows as better-sqlite3 returns them, and their records. */
export interface ResourceRow {
  id: number;
  org_id: number;
  original_filename: string;
  description: string;
  content_type: string;
  version: number;
  identifier: string;
  byte_size: number;
  sha256: string;
  content_summary: string;
  command_id: string;
  created_at: string;
  updated_at: string;
}

export const toResource = (row: ResourceRow): Resource => ({
  id: row.id,
  orgId: row.org_id,
  originalFilename: row.original_filename,
  description: row.description,
  contentType: row.content_type,
  version: row.version,
  identifier: row.identifier,
  byteSize: row.byte_size,
  sha256: row.sha256,
  contentSummary: JSON.parse(row.content_summary) as ContentTable[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
