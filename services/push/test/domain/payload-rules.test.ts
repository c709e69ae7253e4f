import { isAppError } from '@formcast/platform';
import { checkAnswers, checkAnswersShape, checkPayload, instanceAnswers } from '../../src/domain/payload-rules';

/** An inspection form: plain questions, a subform and a repeating group (spec 4.4). */
const questions = [
  { identifier: 'site', type: 'text' },
  { identifier: 'visits', type: 'integer' },
  {
    identifier: 'address',
    type: 'subform',
    children: [
      { identifier: 'street', type: 'text' },
      { identifier: 'geo', type: 'subform', children: [{ identifier: 'where', type: 'location' }] },
    ],
  },
  {
    identifier: 'readings',
    type: 'group',
    children: [
      { identifier: 'value', type: 'decimal' },
      { identifier: 'checked', type: 'boolean' },
    ],
  },
];

/** The message of the 'invalid' AppError `check` throws. */
function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkPayload', () => {
  it('accepts values for the form’s questions at every level and returns them', () => {
    const payload = {
      site: 'North yard',
      visits: '3',
      address: { street: '1 Quay Road', geo: { where: 'lat=51.5, long=-0.12' } },
      readings: [{ value: '1.5', checked: 'true' }, { value: '2' }, {}],
    };
    expect(checkPayload(payload, questions)).toEqual(payload);
  });

  it('accepts an empty payload, an empty subform and a group of no repetitions', () => {
    expect(checkPayload({}, questions)).toEqual({});
    expect(checkPayload({ address: {}, readings: [] }, questions)).toEqual({ address: {}, readings: [] });
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'site=North'],
    ['absent', undefined],
    ['an instance of a class', new Date()],
  ])('refuses a payload that is %s', (_label, payload) => {
    expect(refusal(() => checkPayload(payload, questions))).toBe('payload: must be an object of question names to values');
  });

  it('refuses a key that is not a question of the form, naming it with its path', () => {
    expect(refusal(() => checkPayload({ sight: 'North yard' }, questions))).toBe('payload.sight: is not a question of this form');
    expect(refusal(() => checkPayload({ address: { town: 'Leeds' } }, questions))).toBe('payload.address.town: is not a question of this form');
    expect(refusal(() => checkPayload({ readings: [{ value: '1' }, { note: 'x' }] }, questions))).toBe(
      'payload.readings[1].note: is not a question of this form',
    );
  });

  it('refuses __proto__ and constructor as the unknown names they are', () => {
    expect(refusal(() => checkPayload(JSON.parse('{"__proto__": {"site": "x"}}'), questions))).toBe(
      'payload.__proto__: is not a question of this form',
    );
    expect(refusal(() => checkPayload({ constructor: 'x' }, questions))).toBe('payload.constructor: is not a question of this form');
  });

  it.each([
    ['an operator object', { $gt: '' }],
    ['a number', 3],
    ['a boolean', true],
    ['null', null],
    ['an array', ['North']],
  ])('refuses %s for a plain question, saying what it takes', (_label, value) => {
    expect(refusal(() => checkPayload({ site: value }, questions))).toBe('payload.site: must be a string (a text value)');
    expect(refusal(() => checkPayload({ visits: value }, questions))).toBe('payload.visits: must be a string (a integer value)');
  });

  it('checks each value by its question’s type, naming the field', () => {
    expect(refusal(() => checkPayload({ visits: 'three' }, questions))).toBe('payload.visits: must be a whole number');
    expect(refusal(() => checkPayload({ readings: [{ value: '1' }, { value: 'x' }] }, questions))).toBe(
      'payload.readings[1].value: must be a decimal number',
    );
    expect(refusal(() => checkPayload({ address: { geo: { where: 'Leeds' } } }, questions))).toBe(
      'payload.address.geo.where: must be "lat=<latitude>, long=<longitude>"',
    );
  });

  it('refuses a subform that is not an object', () => {
    expect(refusal(() => checkPayload({ address: '1 Quay Road' }, questions))).toBe('payload.address: must be an object of question names to values');
    expect(refusal(() => checkPayload({ address: [{ street: 'x' }] }, questions))).toBe(
      'payload.address: must be an object of question names to values',
    );
  });

  it('refuses a group that is not an array of objects', () => {
    expect(refusal(() => checkPayload({ readings: { value: '1' } }, questions))).toBe(
      'payload.readings: must be an array with one object per repetition',
    );
    expect(refusal(() => checkPayload({ readings: ['1'] }, questions))).toBe(
      'payload.readings[0]: must be an object of question names to values',
    );
  });

  it('takes at most 1000 repetitions of a group', () => {
    const repetitions = (n: number) => Array.from({ length: n }, () => ({ value: '1' }));
    expect(checkPayload({ readings: repetitions(1000) }, questions).readings).toHaveLength(1000);
    expect(refusal(() => checkPayload({ readings: repetitions(1001) }, questions))).toBe('payload.readings: must have at most 1000 repetitions');
  });

  it('with lenientRepeats (XML), takes a single object for one repetition', () => {
    expect(checkPayload({ readings: { value: '1' } }, questions, { lenientRepeats: true })).toEqual({ readings: [{ value: '1' }] });
    expect(checkPayload({ readings: [{ value: '1' }] }, questions, { lenientRepeats: true })).toEqual({ readings: [{ value: '1' }] });
    expect(refusal(() => checkPayload({ readings: '1' }, questions, { lenientRepeats: true }))).toBe(
      'payload.readings: must be an array with one object per repetition',
    );
  });

  it('knows no question when the form has none, or only malformed ones', () => {
    expect(refusal(() => checkPayload({ site: 'x' }, undefined))).toBe('payload.site: is not a question of this form');
    expect(refusal(() => checkPayload({ site: 'x' }, [{ identifier: 'site' }, 'site', null]))).toBe('payload.site: is not a question of this form');
    expect(checkPayload({}, undefined)).toEqual({});
  });
});

describe('checkAnswersShape', () => {
  it('takes an object of answers as it is', () => {
    const answers = { site: 'North yard', photo: { name: 'p.jpg' } };
    expect(checkAnswersShape(answers)).toBe(answers);
    expect(checkAnswersShape({})).toEqual({});
  });

  it.each([
    ['an array', [{ site: 'x' }]],
    ['null', null],
    ['a string', 'site=x'],
    ['absent', undefined],
  ])('refuses answers that are %s, naming the field', (_label, answers) => {
    expect(refusal(() => checkAnswersShape(answers))).toBe('answers: must be an object of question names to answers');
  });
});

describe('checkAnswers', () => {
  it('checks answers as payloads are checked, naming the field under answers', () => {
    const answers = { site: 'North yard', visits: '3', address: { street: '1 Quay Road' }, readings: [{ value: '1.5' }] };
    expect(checkAnswers(answers, questions)).toEqual(answers);
    expect(refusal(() => checkAnswers({ visits: 'three' }, questions))).toBe('answers.visits: must be a whole number');
    expect(refusal(() => checkAnswers({ sight: 'x' }, questions))).toBe('answers.sight: is not a question of this form');
    expect(refusal(() => checkAnswers({ readings: [{ checked: 'maybe' }] }, questions))).toBe('answers.readings[0].checked: must be true or false');
    expect(refusal(() => checkAnswers({ site: 3 }, questions))).toBe('answers.site: must be a string (a text value)');
    expect(refusal(() => checkAnswers([], questions))).toBe('answers: must be an object of question names to values');
  });

  it('takes the real product\'s {"value": …} as its value, at every level', () => {
    expect(checkAnswers({ site: { value: 'North' }, visits: { value: '3' } }, questions)).toEqual({ site: 'North', visits: '3' });
    expect(checkAnswers({ address: { value: { street: { value: '1 Quay Road' } } } }, questions)).toEqual({ address: { street: '1 Quay Road' } });
    expect(checkAnswers({ readings: [{ checked: { value: 'true' } }] }, questions)).toEqual({ readings: [{ checked: 'true' }] });
    expect(refusal(() => checkAnswers({ visits: { value: 'three' } }, questions))).toBe('answers.visits: must be a whole number');
  });

  it('keeps {"value": …} as it is where it names a question (a group with a question named value)', () => {
    expect(checkAnswers({ readings: [{ value: '2' }] }, questions)).toEqual({ readings: [{ value: '2' }] });
    expect(refusal(() => checkAnswers({ readings: { value: '2' } }, questions))).toBe(
      'answers.readings: must be an array with one object per repetition',
    );
  });

  it("takes '' for any question (unanswered) and leaves out null ones", () => {
    expect(checkAnswers({ visits: '', address: '', readings: '', site: null }, questions)).toEqual({ visits: '', address: '', readings: '' });
    expect(checkAnswers({ visits: { value: null }, readings: [{ value: '' }] }, questions)).toEqual({ readings: [{ value: '' }] });
  });

  it('with lenientRepeats (XML), takes a single object for one repetition', () => {
    expect(checkAnswers({ readings: { value: '1' } }, questions, { lenientRepeats: true })).toEqual({ readings: [{ value: '1' }] });
  });
});

describe('instanceAnswers', () => {
  const questions = [{ identifier: 'site', type: 'text' }];

  it('takes the answers inside one <inputs>, as the form\'s own instance holds them; an empty one is no answers', () => {
    expect(instanceAnswers({ inputs: { site: 'North' } }, questions)).toEqual({ site: 'North' });
    expect(instanceAnswers({ inputs: '' }, questions)).toEqual({});
  });

  it('leaves the answers as given beside other elements, when repeated, or when the form has a question called inputs', () => {
    expect(instanceAnswers({ inputs: { site: 'a' }, site: 'b' }, questions)).toEqual({ inputs: { site: 'a' }, site: 'b' });
    expect(instanceAnswers({ inputs: [{ site: 'a' }, { site: 'b' }] }, questions)).toEqual({ inputs: [{ site: 'a' }, { site: 'b' }] });
    const withInputs = [{ identifier: 'inputs', type: 'subform', children: [{ identifier: 'site', type: 'text' }] }];
    expect(instanceAnswers({ inputs: { site: 'North' } }, withInputs)).toEqual({ inputs: { site: 'North' } });
    expect(instanceAnswers({ site: 'North' }, questions)).toEqual({ site: 'North' });
  });
});
