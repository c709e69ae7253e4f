/**
 * README.md's examples as one bash script, for test/readme.test.ts. The convention is
 * README's own (the comment at its top):
 * - a ```sh block runs, in the order written; ```console and ```text blocks are shown only;
 * - a ```js block whose first line is `// <name>.js: …` is that file (receiver.js), written
 *   to the folder the script runs in before any block runs.
 * Each command is preceded by a call recording where it is in the README, so a failure and
 * each HTTP status curl received are traced to the README line of their command.
 */

export interface ReadmeFile {
  name: string;
  content: string;
}

export interface ReadmeCommand {
  /** 1-based README lines of the command's first and last line. */
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
  files: ReadmeFile[];
}

const fencePattern = /^```(\S*)\s*$/;
const fileBlockPattern = /^\/\/ ([\w.-]+\.js):/;

export function extractReadmeExamples(markdown: string): ReadmeExamples {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  const files: ReadmeFile[] = [];
  let heading = '(top)';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = fencePattern.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((candidate, at) => at > index && candidate.startsWith('```'));
    if (end < 0) throw new Error(`README line ${index + 1}: a code block that never ends`);
    const body = lines.slice(index + 1, end);
    const language = fence[1];
    if (language === 'sh') {
      blocks.push({ heading, firstLine: body[0] ?? '', commands: splitCommands(body, index + 2) });
    } else if (language === 'js') {
      const named = fileBlockPattern.exec(body[0] ?? '');
      if (named) files.push({ name: named[1]!, content: `${body.join('\n')}\n` });
    }
    index = end;
  }
  return { blocks, files };
}

/**
 * Splits shell lines into top-level commands: a newline ends a command unless it is
 * escaped, inside quotes or inside `$( … )`. Enough of bash's grammar for README examples
 * (no heredocs); a mistake shows as a syntax error in the run, never as a silent pass.
 */
export function splitCommands(lines: string[], firstLineNumber: number): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
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
    throw new Error(`README line ${current?.firstLine ?? firstLineNumber}: a command whose quotes or $( ) never close`);
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
