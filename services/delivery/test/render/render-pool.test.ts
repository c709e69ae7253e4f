import { RenderError, RenderPool, type RenderedEmail, type RenderOutcome, type RenderTask } from '../../src/render/render-pool';
import { submission as submissionPayload } from '../domain/submission-fixture';

function task(answers: Record<string, unknown>, extra: Partial<RenderTask> = {}): RenderTask {
  return {
    format: 'pdf_format',
    formatParameters: {},
    submissionJson: JSON.stringify({ ...submissionPayload(), answers }),
    outline: [],
    subjectTemplate: null,
    bodyTemplate: null,
    toAddressFormField: null,
    rawBody: null,
    wordTemplate: null,
    ...extra,
  };
}

/** The email of a render that needed no images. */
function email(outcome: RenderOutcome): RenderedEmail {
  if ('wantImages' in outcome) throw new Error(`the render asked for images: ${outcome.wantImages.join(', ')}`);
  return outcome;
}

/** `count` answers of `size` characters each. */
const manyAnswers = (count: number, size: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`q${i}`, `${i} ${'x'.repeat(size)}`]));

describe('RenderPool', () => {
  it('renders a PDF on a worker thread, and a liquid subject beside it', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 10_000, memoryMb: 64 });
    try {
      const rendered = email(await pool.render(task({ customer_name: 'Acme' }, { subjectTemplate: 'For {{ customer_name }}' })));
      expect(rendered.subject).toBe('For Acme');
      expect(rendered.document.contentType).toBe('application/pdf');
      expect(rendered.document.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(rendered.attach).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('lays out the next PDFs exactly as the first, whose fonts it parsed (their metrics are shared from then on)', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 10_000, memoryMb: 64 });
    // Kerned pairs ("AV", "To", "Ty") and widths of both fonts: a metric missing or wrong moves the text.
    const answers = { customer_name: 'AVATAR Today, Tyre & Wave', notes: 'WAVE To Yo. '.repeat(40) };
    // The document's /ID is drawn at random: everything else is the same for the same answers.
    const withoutId = (pdf: Buffer) => pdf.toString('latin1').replace(/\/ID \[[^\]]*\]/, '');
    try {
      const [first, second, third] = [email(await pool.render(task(answers))), email(await pool.render(task(answers))), email(await pool.render(task(answers)))];
      expect(withoutId(first.document.bytes)).toContain('/Helvetica-Bold');
      expect(withoutId(second.document.bytes)).toBe(withoutId(first.document.bytes));
      expect(withoutId(third.document.bytes)).toBe(withoutId(first.document.bytes));
    } finally {
      await pool.close();
    }
  });

  it('ends a worker left without a job for idleMs, and starts another for the next job', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 10_000, memoryMb: 64, idleMs: 300 });
    try {
      email(await pool.render(task({ a: 'b' })));
      expect(pool.workers).toBe(1);
      // Jobs closer together than idleMs keep the worker.
      await new Promise((resolve) => setTimeout(resolve, 100));
      email(await pool.render(task({ a: 'c' })));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(pool.workers).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(pool.workers).toBe(0);
      const next = email(await pool.render(task({ customer_name: 'Acme' }, { subjectTemplate: 'For {{ customer_name }}' })));
      expect(next.subject).toBe('For Acme');
      expect(next.document.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('ends a render past its time, keeps the event loop free meanwhile, and renders the next one on a fresh worker', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 5000, memoryMb: 256 });
    try {
      // A worker already started (its libraries loaded): the bound is on the render.
      await pool.render(task({ a: 'b' }));
      const large = task(manyAnswers(120_000, 100));
      let ticks = 0;
      const ticker = setInterval(() => (ticks += 1), 10);
      const started = Date.now();
      await expect(pool.render(large)).rejects.toThrow(/longer than 5000 ms/);
      clearInterval(ticker);
      // Cut near its bound (the machine may be busy: not to the millisecond), not after the whole PDF.
      expect(Date.now() - started).toBeLessThan(15_000);
      // The main thread kept ticking while the worker drew: nothing waited on the render.
      expect(ticks).toBeGreaterThan(100);
      const next = email(await pool.render(task({ a: 'b' })));
      expect(next.document.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await pool.close();
    }
  });

  it('refuses a submission too large for its memory bound, alone, before the worker takes it', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 30_000, memoryMb: 32 });
    try {
      await expect(pool.render(task(manyAnswers(20_000, 300)))).rejects.toThrow(/too large to render within 32 MB \(DELIVERY_RENDER_MEMORY_MB\)/);
      const next = email(await pool.render(task({ a: 'b' })));
      expect(next.document.bytes.length).toBeGreaterThan(100);
    } finally {
      await pool.close();
    }
  });

  it('fails a template that breaks on these answers with the reason, not the process', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 5_000, memoryMb: 64 });
    try {
      await expect(pool.render(task({ a: 'b' }, { subjectTemplate: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' }))).rejects.toThrow(/limit/);
    } finally {
      await pool.close();
    }
  });
});
