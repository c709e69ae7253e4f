/** One line of the results table. */
export interface Row {
  id: string;
  scenario: string;
  /** Requests (or, for S5, notifications) a second. */
  rate?: number;
  rateUnit?: string;
  p50Ms?: number;
  p99Ms?: number;
  /** Against the anchor, e.g. "0.71× req/s, 1.4× p99". */
  versus?: string;
  target: string;
  /** CPU a request took in each process that did work, e.g. "gateway 530, RabbitMQ 430". */
  cpu?: string;
  /** undefined: no target of its own (anchors, informational rows). */
  pass?: boolean;
  note?: string;
}

export interface ProcessMemory {
  name: string;
  idleMb: number;
  /** Peak RSS under request load (every phase but the upload), and the phase it was reached in. */
  loadPeakMb: number;
  loadPhase: string;
  /** Peak RSS during the 10 MB upload (S4), for the processes it reaches. */
  uploadPeakMb?: number;
  /** Against A1's peak in the same run (issue 23); empty, and no verdict, for anchors and helpers. */
  target: string;
  pass?: boolean;
}

/** A process's CPU with nothing to do (issue 24). */
export interface IdleCpu {
  name: string;
  seconds: number;
  /** CPU used over those seconds, as a share of one core (0.002: 0.2%). */
  coreShare: number;
  pass: boolean;
  /** The window starts this many seconds after the set-up's last request. */
  settledAfterS?: number;
  /** The share over the same length of time right after the set-up (its after-work; not judged). */
  afterWorkShare?: number;
}

export interface Report {
  rows: Row[];
  memory: ProcessMemory[];
  idle?: IdleCpu[];
  context: string[];
  notes: string[];
}

const number = (value: number | undefined, digits = 0) =>
  value === undefined || Number.isNaN(value) ? '' : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const verdict = (pass: boolean | undefined) => (pass === undefined ? '' : pass ? 'pass' : '**MISS**');

/** The report as Markdown: what `npm run bench` prints and writes to bench/results/latest.md. */
export function renderMarkdown(report: Report): string {
  const lines: string[] = [];
  lines.push('| | scenario | rate | p50 ms | p99 ms | vs anchor | target | result | CPU µs a request |');
  lines.push('|---|---|--:|--:|--:|---|---|---|---|');
  for (const row of report.rows) {
    const rate = row.rate === undefined ? '' : `${number(row.rate)}${row.rateUnit ? ` ${row.rateUnit}` : ''}`;
    lines.push(
      `| ${row.id} | ${row.scenario}${row.note ? ` (${row.note})` : ''} | ${rate} | ${number(row.p50Ms, 1)} | ${number(row.p99Ms, 1)} | ${row.versus ?? ''} | ${row.target} | ${verdict(row.pass)} | ${row.cpu ?? ''} |`,
    );
  }
  lines.push('');
  lines.push('| process | RSS idle MB | peak RSS MB under load (during) | peak RSS MB during S4 | target | result |');
  lines.push('|---|--:|--:|--:|---|---|');
  for (const p of report.memory) {
    lines.push(
      `| ${p.name} | ${number(p.idleMb)} | ${number(p.loadPeakMb)} (${p.loadPhase}) | ${number(p.uploadPeakMb)} | ${p.target} | ${verdict(p.pass)} |`,
    );
  }
  if (report.idle && report.idle.length > 0) {
    lines.push('');
    lines.push('| process | idle CPU, % of a core | over | right after the set-up (not judged) | target | result |');
    lines.push('|---|--:|--:|--:|---|---|');
    for (const p of report.idle) {
      const over = p.settledAfterS ? `${p.seconds} s from ${p.settledAfterS} s after the set-up` : `${p.seconds} s`;
      const afterWork = p.afterWorkShare === undefined ? '' : number(p.afterWorkShare * 100, 3);
      lines.push(`| ${p.name} | ${number(p.coreShare * 100, 3)} | ${over} | ${afterWork} | < 0.2% | ${verdict(p.pass)} |`);
    }
  }
  lines.push('');
  for (const line of report.context) lines.push(`- ${line}`);
  if (report.notes.length > 0) {
    lines.push('');
    for (const line of report.notes) lines.push(`- ${line}`);
  }
  return `${lines.join('\n')}\n`;
}
