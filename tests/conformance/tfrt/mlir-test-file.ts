// What the peer runner needs to know about one of TFRT's .mlir tests: its
// RUN lines, its functions and their line ranges, its CHECK lines and which
// function each one describes (the MANIFEST's rule: a line quoting 'f' is
// f's; a line inside a body is that function's; any other line belongs to
// the next function; lines after the last function are file-level; and,
// refining it, a CHECK-NEXT/SAME line belongs with the line it follows).
import { readFileSync } from 'node:fs';

export interface MlirFunction {
  name: string;
  /** 1-based lines of `func.func` and of the closing brace. */
  first: number;
  last: number;
  hasArguments: boolean;
  /** A declaration without a body (tfrt.native). */
  declaration: boolean;
}

export interface CheckLine {
  line: number;
  text: string;
  /** The function it describes, or undefined for a file-level line. */
  owner: string | undefined;
}

export interface MlirTestFile {
  path: string;
  source: string;
  lines: string[];
  runLines: string[];
  functions: MlirFunction[];
  checks: CheckLine[];
  /** Lines holding expected-error comments. */
  expectedErrorLines: number[];
}

const FUNC = /^\s*func\.func\s+(?:private\s+)?@([\w.$-]+)\s*\(([^)]*)\)/;
const CHECK = /\/\/\s*CHECK(?:-[A-Z]+)?:/;

export function readMlirTest(path: string): MlirTestFile {
  const source = readFileSync(path, 'utf8');
  const lines = source.split('\n');
  const runLines: string[] = [];
  const functions: MlirFunction[] = [];
  const expectedErrorLines: number[] = [];
  let open: MlirFunction | undefined;
  lines.forEach((text, i) => {
    const line = i + 1;
    const run = /\/\/\s*RUN:\s*(.*)$/.exec(text);
    if (run) runLines.push(run[1].trim());
    if (/expected-error/.test(text)) expectedErrorLines.push(line);
    const func = FUNC.exec(text);
    if (func && open === undefined) {
      // A body opens at the end of the line or on the next line by itself.
      const declaration = !/\{\s*$/.test(text) && !/^\s*\{\s*$/.test(lines[i + 1] ?? '');
      const f: MlirFunction = { name: func[1], first: line, last: line, hasArguments: func[2].trim() !== '', declaration };
      functions.push(f);
      if (!declaration) open = f;
      return;
    }
    if (open && /^\}\s*$/.test(text)) {
      open.last = line;
      open = undefined;
    }
  });
  const checks: CheckLine[] = [];
  lines.forEach((text, i) => {
    if (!CHECK.test(text)) return;
    const line = i + 1;
    // CHECK-NEXT and CHECK-SAME continue the previous match, so they describe
    // what the line before them describes (a CHECK-NEXT after a function's
    // closing brace checks that function's result line).
    const continues = /CHECK-(NEXT|SAME):/.test(text) && checks.length > 0 && !/'[^']+'/.test(text);
    const owner = continues ? checks[checks.length - 1]!.owner : ownerOf(text, line, functions);
    checks.push({ line, text: text.trim(), owner });
  });
  return { path, source, lines, runLines, functions, checks, expectedErrorLines };
}

function ownerOf(text: string, line: number, functions: MlirFunction[]): string | undefined {
  for (const quoted of text.matchAll(/'([^']+)'/g)) {
    if (functions.some((f) => f.name === quoted[1])) return quoted[1];
  }
  const inside = functions.find((f) => f.first <= line && line <= f.last);
  if (inside) return inside.name;
  return functions.find((f) => f.first > line)?.name;
}

/** The source with every line outside `fn` blanked, so line numbers (and expected-error positions) stay put. */
export function maskToFunction(file: MlirTestFile, fn: MlirFunction): string {
  return file.lines.map((text, i) => (i + 1 >= fn.first && i + 1 <= fn.last ? text : '')).join('\n');
}
