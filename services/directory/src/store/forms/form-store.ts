import type { Form, FormRevision, FormVersion, NewForm } from '../../domain/records';

/**
 * Forms (templates) (see `DirectoryStore` for the errors every part throws). A namespace
 * names one form in an organization: 'conflict'.
 */
export interface FormStore {
  /**
   * Unknown organization, or a group it lacks: 'not_found'. `commandId` is the create's
   * command: one already applied under it (a command delivered twice, or a keyed request run
   * again after a crash) answers the form it created, creating nothing ('not_found' if that
   * form was deleted since). Command ids are remembered for `appliedCommandWindowMs` (24 h).
   */
  create(form: NewForm, commandId: string): Promise<Form>;
  /** Ascending by id. */
  list(orgId: number): Promise<Form[]>;
  get(orgId: number, formId: number): Promise<Form | null>;
  findByNamespace(orgId: number, namespace: string): Promise<Form | null>;
  /**
   * The definition the form had at `revision`: the current one, or an earlier one kept when
   * a revision replaced it; null when the form or that revision does not exist.
   */
  getVersion(orgId: number, formId: number, revision: number): Promise<FormVersion | null>;
  /** Saves what `decide` makes of the form, in one transaction, keeping the definition it replaces (getVersion). */
  revise(orgId: number, formId: number, decide: (form: Form) => FormRevision): Promise<Form>;
  /** Moves the form into the group (unknown/foreign group: 'not_found'). */
  move(orgId: number, formId: number, groupId: number, movedAt: string): Promise<Form>;
  /** Locks or unlocks the form (unknown: 'not_found'); answers it as it now is. */
  setLocked(orgId: number, formId: number, locked: boolean, at: string): Promise<Form>;
  /** Answers the form as it was; its earlier definitions go with it. */
  delete(orgId: number, formId: number): Promise<Form>;
}
