/** A submission's answers: `{"value": x}` and `{"value": x, "type": t}` read as x, subforms and groups nested. */
export function AnswerList({ answers }: { answers: Record<string, unknown> }) {
  const entries = Object.entries(answers);
  if (entries.length === 0) return <p class="muted">No answers.</p>;
  return (
    <dl class="answers">
      {entries.map(([key, value]) => (
        <div key={key} class="answer">
          <dt>{key}</dt>
          <dd>
            <AnswerValue value={unwrap(value)} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function unwrap(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'value' in value) {
    const keys = Object.keys(value);
    const typed = keys.length === 2 && typeof (value as { type?: unknown }).type === 'string';
    if (keys.length === 1 || typed) return (value as { value: unknown }).value;
  }
  return value;
}

function AnswerValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span class="muted">—</span>;
  if (Array.isArray(value)) {
    return (
      <ol class="answer-rows">
        {value.map((row, index) => (
          <li key={index}>{typeof row === 'object' && row !== null ? <AnswerList answers={row as Record<string, unknown>} /> : String(row)}</li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object') return <AnswerList answers={value as Record<string, unknown>} />;
  const text = String(value);
  return <span>{text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text}</span>;
}
