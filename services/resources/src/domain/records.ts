/** What the resources service keeps. Every record carries its organization id. */

export interface ContentColumn {
  /** The header cell's text. */
  name: string;
  /** The column's position in the sheet, counting from 1 (A = 1). */
  number: number;
  /** A UUID, generated when the file is stored. */
  id: string;
}

/** One sheet of a spreadsheet, as `generated_content_summary` shows it. */
export interface ContentTable {
  /** `<file name without extension>.<sheet name>`. */
  tableName: string;
  sheetName: string;
  /** A UUID, generated when the file is stored. */
  id: string;
  columns: ContentColumn[];
}

/** A resource's metadata; its bytes are stored apart (a BLOB table, GridFS). */
export interface Resource {
  id: number;
  orgId: number;
  /** As the client gave it; never used as a path. */
  originalFilename: string;
  description: string;
  contentType: string;
  /** 0 when created; + 1 for each new file. */
  version: number;
  /** A UUID, generated when the file is stored and kept until the file changes. */
  identifier: string;
  byteSize: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  contentSummary: ContentTable[];
  createdAt: string;
  updatedAt: string;
}

/** A file that passed every check, with what was derived from it, ready to be stored. */
export interface CheckedFile {
  originalFilename: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
  identifier: string;
  contentSummary: ContentTable[];
}
