import { isAppError } from '@formcast/platform';
import { checkFormDefinition, questionTypes } from '../../src/domain/form-definition';

const valid = {
  type: 'root',
  title: 'Inspection',
  children: [
    { identifier: 'site', title: 'Site', type: 'text', hint: 'kept as it is' },
    { identifier: 'readings', type: 'group', children: [{ identifier: 'value', type: 'decimal' }] },
  ],
};

/** The message of the AppError('invalid') the definition is refused with. */
function refusal(input: unknown): string {
  try {
    checkFormDefinition(input);
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('the definition was accepted');
}

describe('checkFormDefinition', () => {
  it('accepts a definition and keeps every field it has', () => {
    const withExtras = { ...valid, namespace: 'http://forms.example.com/inspection', description: 'Weekly', custom: { a: 1 } };
    expect(checkFormDefinition(withExtras)).toEqual(withExtras);
  });

  it('gives a definition without questions an empty list of them', () => {
    expect(checkFormDefinition({ type: 'root', title: 'Empty' })).toEqual({ type: 'root', title: 'Empty', children: [] });
  });

  it('accepts every question type it lists', () => {
    const children = questionTypes.map((type, i) =>
      type === 'subform' || type === 'group' ? { identifier: `q${i}`, type, children: [] } : { identifier: `q${i}`, type },
    );
    expect(checkFormDefinition({ ...valid, children }).children).toHaveLength(questionTypes.length);
  });

  it('refuses what is not a root with a title', () => {
    expect(refusal(null)).toBe('definition: must be a JSON object');
    expect(refusal([valid])).toBe('definition: must be a JSON object');
    expect(refusal({ ...valid, type: 'form' })).toBe('type: must be "root"');
    expect(refusal({ ...valid, title: '  ' })).toBe('title: must be a non-empty string');
    expect(refusal({ ...valid, title: 'x'.repeat(256) })).toBe('title: must be at most 255 characters');
    expect(refusal({ ...valid, description: 3 })).toBe('description: must be a string');
  });

  it('refuses a namespace that is not an absolute URI', () => {
    for (const namespace of ['forms/inspection', 'http://x/a b', 'http://x/?q', 'http://x/#f', 5]) {
      expect(refusal({ ...valid, namespace })).toBe('namespace: must be an absolute URI');
    }
  });

  it('names the question at fault by its path', () => {
    expect(refusal({ ...valid, children: {} })).toBe('children: must be an array of questions');
    expect(refusal({ ...valid, children: ['text'] })).toBe('children[0]: must be an object');
    expect(refusal({ ...valid, children: [{ identifier: 'a', type: 'colour' }] })).toMatch(/^children\[0\]\.type: must be one of text, /);
    expect(refusal({ ...valid, children: [{ identifier: 'a', type: 'text', title: 1 }] })).toBe('children[0].title: must be a string');
    expect(refusal({ ...valid, children: [{ identifier: 'a', type: 'text', children: [] }] })).toBe(
      'children[0].children: only subform and group questions hold children',
    );
    expect(refusal({ ...valid, children: [{ identifier: 'g', type: 'group', children: [{ identifier: '1x', type: 'text' }] }] })).toMatch(
      /^children\[0\]\.children\[0\]\.identifier: must be a name/,
    );
  });

  it('refuses identifiers that would be unsafe or ambiguous as element names and keys', () => {
    for (const identifier of ['__proto__', 'constructor', 'form_name', 'form_namespace', 'a b', '-a', 'x'.repeat(129), 7]) {
      expect(refusal({ ...valid, children: [{ identifier, type: 'text' }] })).toMatch(/^children\[0\]\.identifier: /);
    }
  });

  it('refuses an identifier used twice among siblings, not in different groups', () => {
    expect(refusal({ ...valid, children: [{ identifier: 'a', type: 'text' }, { identifier: 'a', type: 'integer' }] })).toBe(
      'children[1].identifier: "a" is used twice',
    );
    const nested = { identifier: 'g', type: 'group', children: [{ identifier: 'a', type: 'text' }] };
    expect(() => checkFormDefinition({ ...valid, children: [{ identifier: 'a', type: 'text' }, nested] })).not.toThrow();
  });

  it('refuses nesting deeper than 8 and more than 2000 questions', () => {
    let question: Record<string, unknown> = { identifier: 'leaf', type: 'text' };
    for (let depth = 0; depth < 8; depth += 1) question = { identifier: `g${depth}`, type: 'subform', children: [question] };
    expect(refusal({ ...valid, children: [question] })).toMatch(/questions may be nested at most 8 deep$/);

    const many = Array.from({ length: 2001 }, (_, i) => ({ identifier: `q${i}`, type: 'text' }));
    expect(refusal({ ...valid, children: many })).toBe('children: a form may have at most 2000 questions');
    expect(checkFormDefinition({ ...valid, children: many.slice(0, 2000) }).children).toHaveLength(2000);
  });
});
