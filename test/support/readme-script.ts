/**
 * The examples of README.md and of the guides in docs/ as one bash script, for
 * test/readme.test.ts. The convention is docs/testing.md's ("The examples run"):
 * - a ```sh block runs, in the order written, README first and then each guide in the order
 *   of README's "Where to go next"; ```console and ```text blocks are shown only;
 * - example programs are files of their own (examples/), never blocks.
 * Each command is preceded by a call recording where it is (a number: the document's offset
 * plus its line), so a failure and each HTTP status curl received are traced to the file and
 * line of their command.
 */

export interface ReadmeCommand {
  /** The document it is in (README.md, docs/api.md…). */
  file: string;
  /** 1-based lines of the command's first and last line in its document. */
  line: number;
  /** Where it is in the whole run: unique across documents (offset + line); what markers carry. */
  firstLine: number;
  lastLine: number;
  text: string;
  /** Comments on its lines and the `# → …` answer lines right after it. */
  answerComments: string[];
}

export interface ReadmeBlock {
  /** The heading above the block, and the block's first line: how failures name it. */
  heading: string;
  firstLine: string;
  commands: ReadmeCommand[];
}

export interface ReadmeExamples {
  blocks: ReadmeBlock[];
}

/** A document's markdown, by its path from the repository's root. */
export interface ExampleDocument {
  file: string;
  markdown: string;
}

/** Lines of one document's numbering space: document n's commands are at n × this + line. */
const documentStride = 100_000;

/** Every document's blocks, in order, each command numbered across the whole run. */
export function extractExamples(documents: ExampleDocument[]): ReadmeExamples {
  return {
    blocks: documents.flatMap((document, index) =>
      extractReadmeExamples(document.markdown, document.file, index * documentStride).blocks,
    ),
  };
}

/** The guides README's "Where to go next" table links, in its order (docs/architecture.md has no examples to run). */
export function guidesInReadmeOrder(readme: string): string[] {
  const section = readme.split(/^## Where to go next$/m)[1] ?? '';
  return [...section.matchAll(/^\| \[(docs\/[\w.-]+\.md)\]/gm)]
    .map((match) => match[1]!)
    .filter((file) => file !== 'docs/architecture.md');
}

const fencePattern = /^```(\S*)\s*$/;

export function extractReadmeExamples(markdown: string, file = 'README.md', offset = 0): ReadmeExamples {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let heading = '(top)';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = fencePattern.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((candidate, at) => at > index && candidate.startsWith('```'));
    if (end < 0) throw new Error(`${file} line ${index + 1}: a code block that never ends`);
    const body = lines.slice(index + 1, end);
    if (fence[1] === 'sh') {
      const commands = splitCommands(body, index + 2).map((command) => ({
        ...command,
        file,
        line: command.firstLine,
        firstLine: offset + command.firstLine,
        lastLine: offset + command.lastLine,
      }));
      blocks.push({ heading, firstLine: body[0] ?? '', commands });
    }
    index = end;
  }
  return { blocks };
}

/**
 * Splits shell lines into top-level commands: a newline ends a command unless it is
 * escaped, inside quotes or inside `$( … )`. Enough of bash's grammar for README examples
 * (no heredocs); a mistake shows as a syntax error in the run, never as a silent pass.
 */
export function splitCommands(lines: string[], firstLineNumber: number): Array<Omit<ReadmeCommand, 'file' | 'line'>> {
  const commands: Array<Omit<ReadmeCommand, 'file' | 'line'>> = [];
  // What the lexer is inside: a single- or double-quoted string, or a `$(` substitution.
  const stack: Array<"'" | '"' | '$('> = [];
  let current: { firstLine: number; lines: string[]; comments: string[] } | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const lineNumber = firstLineNumber + index;
    if (current === null) {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      if (trimmed.startsWith('#')) {
        const previous = commands.at(-1);
        const isAnswer = /^#\s*→/.test(trimmed) || (/^#\s{2,}/.test(trimmed) && previous?.answerComments.length);
        if (previous && previous.lastLine + previous.answerComments.length === lineNumber - 1 && isAnswer) {
          previous.answerComments.push(trimmed);
        }
        continue;
      }
      current = { firstLine: lineNumber, lines: [], comments: [] };
    }
    current.lines.push(line);
    let continued = false;
    for (let at = 0; at < line.length; at += 1) {
      const char = line[at]!;
      const inside = stack.at(-1);
      if (inside === "'") {
        if (char === "'") stack.pop();
        continue;
      }
      if (char === '\\') {
        if (at === line.length - 1) continued = true;
        at += 1;
        continue;
      }
      if (inside === '"') {
        if (char === '"') stack.pop();
        else if (char === '$' && line[at + 1] === '(') {
          stack.push('$(');
          at += 1;
        }
        continue;
      }
      // Top level, or inside $( … ): quotes open, a comment ends the line.
      if (char === "'" || char === '"') stack.push(char);
      else if (char === '$' && line[at + 1] === '(') {
        stack.push('$(');
        at += 1;
      } else if (char === '(' && inside === '$(') stack.push('$(');
      else if (char === ')' && inside === '$(') stack.pop();
      else if (char === '#' && (at === 0 || /\s/.test(line[at - 1]!))) {
        current.comments.push(line.slice(at).trim());
        break;
      }
    }
    const trimmedEnd = line.replace(/\s+#.*$/, '').trimEnd();
    const pipedOn = stack.length === 0 && /(\|\||&&|\|)$/.test(trimmedEnd);
    if (!continued && !pipedOn && stack.length === 0) {
      commands.push({
        firstLine: current.firstLine,
        lastLine: lineNumber,
        text: current.lines.join('\n'),
        answerComments: [...current.comments],
      });
      current = null;
    }
  }
  if (current !== null || stack.length > 0) {
    throw new Error(`line ${current?.firstLine ?? firstLineNumber}: a command whose quotes or $( ) never close`);
  }
  return commands;
}

/** Marker lines the script writes to stderr: `::at:: <line>` and `::status:: <line> <code> <method> <url>`. */
export const atMarker = '::at::';
export const statusMarker = '::status::';

/**
 * The whole run as one bash script: `set -euo pipefail`, a `curl` function that reports
 * every HTTP status it received (beside anything the command's own `-w` prints), then each
 * command after a note of its README line.
 */
export function readmeScript(examples: ReadmeExamples): string {
  const prelude = String.raw`set -euo pipefail
__readme_line=0
__at() { __readme_line=$1; echo "${atMarker} $1" >&2; }
curl() {
  local report='%{stderr}${statusMarker} '"$__readme_line"' %{http_code} %{method} %{url_effective}\n'
  local args=() given=0
  while [ $# -gt 0 ]; do
    case "$1" in
      -w|--write-out) args+=("$1" "$2$report"); given=1; shift 2 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  if [ "$given" = 0 ]; then args+=(-w "$report"); fi
  command curl "${'$'}{args[@]}"
}
`;
  const body = examples.blocks.flatMap((block) => block.commands.flatMap((command) => [`__at ${command.firstLine}`, command.text]));
  return `${prelude}\n${body.join('\n')}\n`;
}

/** The block and command a README line belongs to. */
export function commandAt(examples: ReadmeExamples, line: number): { block: ReadmeBlock; command: ReadmeCommand } | undefined {
  for (const block of examples.blocks) {
    const command = block.commands.find((candidate) => candidate.firstLine === line);
    if (command) return { block, command };
  }
  return undefined;
}

/**
 * Whether a status agrees with the command's comments: a comment that begins with a status
 * (`# → 201 …`, `# 401 without …`) names the one expected; otherwise any 4xx or 5xx must be
 * named somewhere in them (`# → … 400 …`), so a refusal the README does not show fails.
 */
export function statusProblem(command: ReadmeCommand, status: number): string | null {
  const leading = command.answerComments
    .map((comment) => /^#\s*(?:→\s*)?([1-5]\d\d)\b/.exec(comment)?.[1])
    .filter((code): code is string => code !== undefined);
  if (leading.length > 0) {
    return leading.includes(String(status)) ? null : `answered ${status}, the README says ${leading.join(' or ')}`;
  }
  if (status < 400) return null;
  const named = command.answerComments.some((comment) => new RegExp(`\\b${status}\\b`).test(comment));
  return named ? null : `answered ${status}, and no comment of the README says so`;
}
