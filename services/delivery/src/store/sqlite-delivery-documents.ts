import type { SqliteQueries } from '@formcast/storage';
import type { DeliveryDocumentStore } from './delivery-store';
import type { DeliveryDocument } from '../domain/records';

/** The document each delivery carried (PDF, .docx, text), kept as sent: part of SqliteDeliveryStore. */
export class SqliteDeliveryDocuments implements DeliveryDocumentStore {
  constructor(private readonly sql: SqliteQueries) {}

  async saveDocument(deliveryId: number, document: DeliveryDocument): Promise<DeliveryDocument> {
    return this.sql.write(() => {
      this.sql.run(
        `INSERT INTO delivery_documents (delivery_id, message, content_type, file_name, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (delivery_id) DO NOTHING`,
        deliveryId,
        JSON.stringify(document.message),
        document.contentType,
        document.fileName,
        document.bytes,
        document.createdAt,
      );
      return this.documentRow(deliveryId)!;
    });
  }

  async getDocument(deliveryId: number): Promise<DeliveryDocument | null> {
    return this.documentRow(deliveryId);
  }

  private documentRow(deliveryId: number): DeliveryDocument | null {
    const row = this.sql.get<{ message: string; content_type: string; file_name: string; bytes: Buffer; created_at: string }>(
      'SELECT message, content_type, file_name, bytes, created_at FROM delivery_documents WHERE delivery_id = ?',
      deliveryId,
    );
    if (!row) return null;
    return { message: JSON.parse(row.message), contentType: row.content_type, fileName: row.file_name, bytes: row.bytes, createdAt: row.created_at };
  }
}
