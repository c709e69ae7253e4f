import { formNotFound, groupNotFound } from '../../domain/errors';
import type { Form, FormRevision, FormVersion, NewForm } from '../../domain/records';
import type { MongoDirectoryDb } from '../mongo-directory-db';
import type { FormDoc, FormVersionDoc } from '../mongo-models';
import type { FormStore } from './form-store';

/** Forms on the directory's MongoDB database (see MongoDirectoryStore). */
export class MongoFormStore implements FormStore {
  constructor(private readonly db: MongoDirectoryDb) {}

  async create(form: NewForm, commandId: string): Promise<Form> {
    const { Form } = this.db.models;
    return this.db.createOnce(
      form.orgId,
      commandId,
      async ([formId = 0], session) => {
        // forms: by _id.
        const doc = await Form.findOne({ _id: formId, orgId: form.orgId }).session(session).lean<FormDoc>();
        if (!doc) throw formNotFound(formId);
        return formFromDoc(doc);
      },
      async (session) => {
        await this.db.requireOrganization(form.orgId, session);
        if (!(await this.db.lockGroup(form.orgId, form.groupId, session))) throw groupNotFound(form.groupId);
        const doc: FormDoc = {
          _id: await this.db.nextId('forms', session),
          ...form,
          createdAt: new Date(form.createdAt),
          updatedAt: new Date(form.updatedAt),
        };
        await Form.create([doc], { session });
        return { answer: formFromDoc(doc), createdIds: [doc._id] };
      },
    );
  }

  list(orgId: number): Promise<Form[]> {
    // forms: { orgId, _id }.
    return this.db.all(this.db.models.Form.find({ orgId }).sort({ _id: 1 }).lean<FormDoc[]>(), formFromDoc);
  }

  get(orgId: number, formId: number): Promise<Form | null> {
    // forms: by _id.
    return this.db.one(this.db.models.Form.findOne({ _id: formId, orgId }).lean<FormDoc>(), formFromDoc);
  }

  findByNamespace(orgId: number, namespace: string): Promise<Form | null> {
    // forms: the unique { orgId, namespace }.
    return this.db.one(this.db.models.Form.findOne({ orgId, namespace }).lean<FormDoc>(), formFromDoc);
  }

  async getVersion(orgId: number, formId: number, revision: number): Promise<FormVersion | null> {
    const form = await this.get(orgId, formId);
    if (!form) return null;
    if (form.revision === revision) return { revision, name: form.name, definition: form.definition };
    await this.db.ready;
    // form_versions: the unique { orgId, formId, revision }.
    const doc = await this.db.models.FormVersion.findOne({ orgId, formId, revision }).lean<FormVersionDoc>();
    return doc ? { revision: doc.revision, name: doc.name, definition: doc.definition } : null;
  }

  async revise(orgId: number, formId: number, decide: (form: Form) => FormRevision): Promise<Form> {
    const { Form, FormVersion } = this.db.models;
    return this.db.transaction(async (session) => {
      // forms: by _id.
      const doc = await Form.findOne({ _id: formId, orgId }).session(session).lean<FormDoc>();
      if (!doc) throw formNotFound(formId);
      const current = formFromDoc(doc);
      const revision = decide(current);
      // The definition it replaces is kept (getVersion); a retried transaction writes it again.
      await FormVersion.updateOne(
        { orgId, formId, revision: current.revision },
        { $set: { name: current.name, definition: current.definition, replacedAt: new Date(revision.updatedAt) } },
        { upsert: true, session },
      );
      await Form.updateOne({ _id: formId, orgId }, { $set: { ...revision, updatedAt: new Date(revision.updatedAt) } }, { session });
      return { ...current, ...revision };
    });
  }

  async move(orgId: number, formId: number, groupId: number, movedAt: string): Promise<Form> {
    const { Form } = this.db.models;
    return this.db.transaction(async (session) => {
      // forms: by _id.
      if (!(await Form.exists({ _id: formId, orgId }).session(session))) throw formNotFound(formId);
      if (!(await this.db.lockGroup(orgId, groupId, session))) throw groupNotFound(groupId);
      const doc = await Form.findOneAndUpdate(
        { _id: formId, orgId },
        { $set: { groupId, updatedAt: new Date(movedAt) } },
        { session, returnDocument: 'after' },
      ).lean<FormDoc>();
      if (!doc) throw formNotFound(formId);
      return formFromDoc(doc);
    });
  }

  async setLocked(orgId: number, formId: number, locked: boolean, at: string): Promise<Form> {
    await this.db.ready;
    const doc = await this.db.models.Form.findOneAndUpdate({ _id: formId, orgId }, { $set: { locked, updatedAt: new Date(at) } }, { returnDocument: 'after' }).lean<FormDoc>();
    if (!doc) throw formNotFound(formId);
    return formFromDoc(doc);
  }

  async delete(orgId: number, formId: number): Promise<Form> {
    await this.db.ready;
    // forms: by _id.
    const { Form, FormVersion } = this.db.models;
    return this.db.transaction(async (session) => {
      const doc = await Form.findOneAndDelete({ _id: formId, orgId }, { session }).lean<FormDoc>();
      if (!doc) throw formNotFound(formId);
      await FormVersion.deleteMany({ orgId, formId }, { session });
      return formFromDoc(doc);
    });
  }
}

const formFromDoc = ({ _id, createdAt, updatedAt, ...fields }: FormDoc): Form => ({
  id: _id,
  ...fields,
  // Forms saved before locking existed are unlocked.
  locked: fields.locked ?? false,
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString(),
});
