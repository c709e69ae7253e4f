import type { Request } from 'express';
import { pushCommands, type DispatchView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { isPlainObject } from '../http/json-object';
import { readBody } from '../http/request-body';
import type { SendCommand } from '../http/send-command';
import { readOneshotXml } from '../xml/oneshot-xml';

/** The create and update fields of every push generation (observed-behaviour), as the API spells them. */
export const dispatchBodyFields = ['form_namespace', 'form_name', 'form_description', 'payload', 'scheduled_at', 'location', 'address', 'geofence_radius'] as const;
const knownFields = new Set<string>(dispatchBodyFields);

const jsonShape = `{${dispatchBodyFields.map((f) => `"${f}"`).join(', ')}}`;

/**
 * A JSON body's fields. An unknown key is refused naming it: a misspelt `scheduled_at`
 * (`send_at`) silently ignored would push at once.
 */
function fieldsOfJson(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw new AppError('invalid', `Expected a JSON object ${jsonShape}`);
  const unknown = Object.keys(value).filter((key) => !knownFields.has(key));
  if (unknown.length > 0) throw new AppError('invalid', `${unknown.join(', ')}: unknown field; the fields are ${dispatchBodyFields.join(', ')}`);
  return Object.fromEntries(dispatchBodyFields.filter((f) => value[f] !== undefined).map((f) => [f, value[f]]));
}

/**
 * A create or update body of a dispatch (a oneshot), XML `<oneshot>` or JSON, as the push
 * command takes it: the documented fields, `fromXml` for XML. Every generation's path reads
 * it, so a dispatch is the same record whichever created it.
 */
export function dispatchFromBody(req: Request): Record<string, unknown> {
  const body = readBody(req);
  if (body.kind === 'xml') return { ...readOneshotXml(body.value), fromXml: true };
  if (body.kind === 'json') return fieldsOfJson(body.value);
  throw new AppError('invalid', `Send the dispatch as XML <oneshot> or as JSON ${jsonShape}`);
}

/** The template namespace a dispatch was made from: its own namespace is `<template namespace>?<uuid>`. */
function templateNamespaceOf(dispatch: DispatchView): string {
  const mark = dispatch.namespace.lastIndexOf('?');
  return mark === -1 ? dispatch.namespace : dispatch.namespace.slice(0, mark);
}

/**
 * An update body (same fields as a create) as the update command takes it. `form_namespace`
 * is a documented update field, but a dispatch keeps its form: given, it must be the
 * dispatch's own (clients send their create body again), else 400.
 */
export async function dispatchUpdate(req: Request, send: SendCommand, deviceRef: string, oneshotId: number): Promise<Record<string, unknown>> {
  const { form_namespace, ...fields } = dispatchFromBody(req);
  if (form_namespace !== undefined) {
    const dispatch = await send<DispatchView>(req, pushCommands.getDispatch, { dispatchId: oneshotId });
    if (form_namespace !== templateNamespaceOf(dispatch)) {
      throw new AppError('invalid', `form_namespace: dispatch ${oneshotId} was made from ${templateNamespaceOf(dispatch)}; a dispatch's form cannot change`);
    }
  }
  return { deviceRef, oneshotId, ...fields };
}
