import type { Question } from '../api/types';
import { choicesOf, fillableQuestions, type Answers, type AnswerValue } from './question-values';

interface FieldProps {
  question: Question;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  /** Unique among the page's fields: the id of the input, for its label. */
  path: string;
}

/** One question of a form as an input that follows its type. */
export function QuestionField({ question, value, onChange, path }: FieldProps) {
  const label = question.title || question.identifier;
  if (question.type === 'subform') {
    return (
      <fieldset class="subform">
        <legend>{label}</legend>
        <QuestionFields questions={question.children} answers={isAnswers(value) ? value : {}} onChange={onChange} path={path} />
      </fieldset>
    );
  }
  if (question.type === 'group') {
    return <RepeatingGroup question={question} rows={Array.isArray(value) ? value : []} onChange={onChange} path={path} />;
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div class="field">
      <label for={path}>
        {label} <span class="field-type">{question.type}</span>
      </label>
      <PlainInput question={question} id={path} value={text} onChange={onChange} />
    </div>
  );
}

/** Every fillable question of a list, each bound to its key in `answers`. */
export function QuestionFields({
  questions,
  answers,
  onChange,
  path,
}: {
  questions: Question[] | undefined;
  answers: Answers;
  onChange: (answers: Answers) => void;
  path: string;
}) {
  return (
    <>
      {fillableQuestions(questions).map((q) => (
        <QuestionField
          key={q.identifier}
          question={q}
          path={`${path}-${q.identifier}`}
          value={answers[q.identifier]}
          onChange={(value) => onChange({ ...answers, [q.identifier]: value })}
        />
      ))}
    </>
  );
}

function isAnswers(value: AnswerValue | undefined): value is Answers {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function RepeatingGroup({ question, rows, onChange, path }: { question: Question; rows: Answers[]; onChange: (rows: Answers[]) => void; path: string }) {
  const label = question.title || question.identifier;
  return (
    <fieldset class="group">
      <legend>{label}</legend>
      {rows.length === 0 ? <p class="muted">No rows.</p> : null}
      {rows.map((row, index) => (
        <div class="group-row" key={index}>
          <QuestionFields
            questions={question.children}
            answers={row}
            path={`${path}-${index}`}
            onChange={(changed) => onChange(rows.map((r, i) => (i === index ? changed : r)))}
          />
          <button type="button" class="secondary" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
            Remove row {index + 1}
          </button>
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => onChange([...rows, {}])}>
        Add a row to {label}
      </button>
    </fieldset>
  );
}

function PlainInput({ question, id, value, onChange }: { question: Question; id: string; value: string; onChange: (value: string) => void }) {
  const onInput = (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value);
  switch (question.type) {
    case 'textarea':
      return <textarea id={id} value={value} onInput={onInput} rows={3} />;
    case 'integer':
      return <input id={id} type="number" step="1" inputMode="numeric" value={value} onInput={onInput} />;
    case 'decimal':
      return <input id={id} type="number" step="any" inputMode="decimal" value={value} onInput={onInput} />;
    case 'date':
      return <input id={id} type="date" value={value} onInput={onInput} />;
    case 'time':
      return <input id={id} type="time" value={value} onInput={onInput} />;
    case 'datetime':
      return <input id={id} type="datetime-local" value={value} onInput={onInput} />;
    case 'email':
      return <input id={id} type="email" value={value} onInput={onInput} />;
    case 'phone':
      return <input id={id} type="tel" value={value} onInput={onInput} />;
    case 'boolean':
      return (
        <select id={id} value={value} onChange={onInput}>
          <option value="">—</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      );
    case 'select1':
      return (
        <select id={id} value={value} onChange={onInput}>
          <option value="">—</option>
          {choicesOf(question).map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
    case 'select':
      return <MultipleChoice question={question} id={id} value={value} onChange={onChange} />;
    case 'location':
      return <input id={id} type="text" placeholder="lat=35.77, long=-78.63" value={value} onInput={onInput} />;
    case 'image':
    case 'sketch':
    case 'signature':
      return <JpegInput id={id} onChange={onChange} />;
    default:
      return <input id={id} type="text" value={value} onInput={onInput} />;
  }
}

/** `select`: several choices, sent space-separated. */
function MultipleChoice({ question, id, value, onChange }: { question: Question; id: string; value: string; onChange: (value: string) => void }) {
  const chosen = new Set(value.split(/\s+/).filter(Boolean));
  const choices = choicesOf(question);
  if (choices.length === 0) return <input id={id} type="text" value={value} onInput={(e) => onChange(e.currentTarget.value)} />;
  const toggle = (choice: string) => {
    if (chosen.has(choice)) chosen.delete(choice);
    else chosen.add(choice);
    onChange(choices.map((c) => c.value).filter((c) => chosen.has(c)).join(' '));
  };
  return (
    <div id={id} class="choices" role="group">
      {choices.map((c) => (
        <label key={c.value} class="choice">
          <input type="checkbox" checked={chosen.has(c.value)} onChange={() => toggle(c.value)} /> {c.label}
        </label>
      ))}
    </div>
  );
}

/** Images, sketches, signatures: a JPEG file, sent as Base64. */
function JpegInput({ id, onChange }: { id: string; onChange: (value: string) => void }) {
  const onFile = (e: { currentTarget: HTMLInputElement }) => {
    const file = e.currentTarget.files?.[0];
    if (!file) {
      onChange('');
      return;
    }
    const reader = new FileReader();
    reader.onload = () => onChange(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.readAsDataURL(file);
  };
  return <input id={id} type="file" accept="image/jpeg" onChange={onFile} />;
}
