import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, type ResolvedForm } from '@formcast/contracts';
import { AppError, isAppError, nullIfNotFound } from '@formcast/platform';

/**
 * What the delivery service asks the directory: that a form exists in the organization
 * (destinations hang off forms, and another organization's form is 404 like an unknown
 * one), and that a dispatch's target template does. Not cached: these commands are the
 * API's, not the delivery path's.
 */
export class FormLookup {
  constructor(
    private readonly bus: Bus,
    private readonly timeoutMs: number,
  ) {}

  /** Resolves when the form is the organization's; AppError('not_found') otherwise. */
  async requireForm(orgId: number, formId: number, requestId: string): Promise<void> {
    await this.getForm(orgId, formId, requestId);
  }

  /** Whether the directory still has the form; any failure but its not_found is thrown. */
  async formExists(orgId: number, formId: number, requestId: string): Promise<boolean> {
    return (await nullIfNotFound(this.getForm(orgId, formId, requestId))) !== null;
  }

  /** The template a dispatch pushes; AppError('invalid') naming the field when the organization has none with that namespace. */
  async requireTemplate(orgId: number, namespace: string, requestId: string): Promise<ResolvedForm> {
    try {
      return await this.bus.request<ResolvedForm>(createEnvelope(directoryCommands.resolveForm, { namespace }, { orgId, requestId }), {
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found') {
        throw new AppError('invalid', `dispatch_transport.form_namespace: no form of this organization has namespace ${namespace}`);
      }
      throw error;
    }
  }

  private getForm(orgId: number, formId: number, requestId: string): Promise<unknown> {
    return this.bus.request(createEnvelope(directoryCommands.getForm, { formId }, { orgId, requestId }), { timeoutMs: this.timeoutMs });
  }
}
