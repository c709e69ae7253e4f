import { isAppError } from '@formcast/platform';
import { newForm, reviseForm } from '../../src/domain/form-rules';
import type { Form, FormDefinition } from '../../src/domain/records';
import { thrownBy } from '../thrown-by';

const now = '2030-05-01T10:00:00.000Z';
const definition: FormDefinition = {
  type: 'root',
  title: 'Inspection',
  description: 'Weekly',
  children: [{ identifier: 'site', type: 'text' }],
};
const place = { orgId: 7, groupId: 4, generatedNamespace: 'http://formcast.local/xforms/generated', now };

describe('newForm', () => {
  it('is at revision 1, named after its title, with the generated namespace', () => {
    expect(newForm(definition, place)).toEqual({
      orgId: 7,
      groupId: 4,
      name: 'Inspection',
      namespace: place.generatedNamespace,
      description: 'Weekly',
      revision: 1,
      locked: false,
      definition: { ...definition, namespace: place.generatedNamespace },
      createdAt: now,
      updatedAt: now,
    });
  });

  it('keeps a namespace its definition brings', () => {
    const own = { ...definition, namespace: 'http://example.com/own' };
    expect(newForm(own, place)).toMatchObject({ namespace: 'http://example.com/own', definition: own });
  });

  it('has an empty description when the definition has none that is text', () => {
    expect(newForm({ ...definition, description: undefined }, place).description).toBe('');
    expect(newForm({ ...definition, description: 3 }, place).description).toBe('');
  });
});

describe('reviseForm', () => {
  const form: Form = { ...newForm(definition, place), id: 9, revision: 2 };
  const next: FormDefinition = { type: 'root', title: 'Inspection v2', children: [] };

  it('takes the name from the new title and adds a revision, keeping the namespace', () => {
    expect(reviseForm(form, next, '2030-06-01T00:00:00.000Z')).toEqual({
      definition: { ...next, namespace: form.namespace },
      name: 'Inspection v2',
      revision: 3,
      updatedAt: '2030-06-01T00:00:00.000Z',
    });
  });

  it('accepts a definition that repeats the namespace', () => {
    expect(reviseForm(form, { ...next, namespace: form.namespace }, now).definition.namespace).toBe(form.namespace);
  });

  it('refuses a definition that changes the namespace', () => {
    const error = thrownBy(() => reviseForm(form, { ...next, namespace: 'http://example.com/other' }, now));
    expect(isAppError(error) && [error.code, error.message]).toEqual([
      'invalid',
      'namespace: a form keeps its namespace; omit it or send the current one',
    ]);
  });
});

describe('reviseForm on a locked form', () => {
  it('refuses a new definition with 409 naming the unlock, and takes one once unlocked', () => {
    const form = { ...newForm({ type: 'root', title: 'Inspection', children: [] }, { orgId: 1, groupId: 1, generatedNamespace: 'http://x/ns', now: '2024-01-01T00:00:00Z' }), id: 5 };
    const definition = { type: 'root' as const, title: 'Inspection 2', children: [] };
    expect(() => reviseForm({ ...form, locked: true }, definition, '2024-01-02T00:00:00Z')).toThrow(/Form 5 is locked: unlock it \(PUT \/api\/v3\/forms\/5\/unlock\)/);
    expect(reviseForm(form, definition, '2024-01-02T00:00:00Z').revision).toBe(2);
  });
});
