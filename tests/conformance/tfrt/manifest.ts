// The corpus MANIFEST's classification of each test function: a (TFRT's
// basic kernels), a+t (plus simple tfrt_test kernels), b (dense host tensor
// and shape kernels), b+t, and c (out of scope).
import { readFileSync } from 'node:fs';

export type TestClass = 'a' | 'a+t' | 'b' | 'b+t' | 'c';
const CLASSES: TestClass[] = ['a', 'a+t', 'b', 'b+t', 'c'];

export interface ManifestFile {
  /** Path under mlir_tests/. */
  path: string;
  kind: 'exec' | 'translator';
  /** The class of every runnable function when the file has only one. */
  soleClass: TestClass | undefined;
  /** Every class with runnable functions in the file. */
  present: TestClass[];
  /** Per-function classes of a mixed file. */
  functions: Map<string, TestClass>;
}

export function readManifest(manifestPath: string): Map<string, ManifestFile> {
  const text = readFileSync(manifestPath, 'utf8');
  const files = new Map<string, ManifestFile>();
  for (const line of text.split('\n')) {
    const row = /^\| (\S+\.mlir) \| [0-9a-f]+ \| (exec|translator) \| ([\d /]+) \|/.exec(line);
    if (!row) continue;
    const counts = row[3].split('/').map((n) => Number(n.trim()));
    const present = CLASSES.filter((_, i) => counts[i] > 0);
    files.set(row[1], {
      path: row[1],
      kind: row[2] as 'exec' | 'translator',
      soleClass: present.length === 1 ? present[0] : undefined,
      present,
      functions: new Map(),
    });
  }
  for (const line of text.split('\n')) {
    const mixed = /^\* `([^`]+\.mlir)`: (.*)$/.exec(line);
    if (!mixed) continue;
    const file = files.get(mixed[1]);
    if (!file) continue;
    for (const group of mixed[2].split(/;\s*/)) {
      const g = /^\*\*([a-z+]+)\*\*: (.*)$/.exec(group.trim());
      if (!g) continue;
      for (const name of g[2].split(',')) file.functions.set(name.trim(), g[1] as TestClass);
    }
  }
  return files;
}

/**
 * The class of function `name` in `file`. The MANIFEST lists functions
 * only for files mixing in-scope and class-c functions; a file whose
 * functions span a class and its "+t" variant (tensor_shape.mlir: b and
 * b+t) is told apart by whether the function's own text uses a tfrt_test
 * kernel, which is what the "+t" means.
 */
export function classOf(file: ManifestFile, name: string, body?: string): TestClass | undefined {
  const listed = file.functions.get(name);
  if (listed !== undefined) return listed;
  if (file.functions.size !== 0) return undefined;
  if (file.soleClass !== undefined) return file.soleClass;
  if (body === undefined) return undefined;
  const present = file.present;
  const plain = present.find((c) => !c.endsWith('+t'));
  const withTests = present.find((c) => c.endsWith('+t'));
  if (present.length === 2 && plain !== undefined && withTests === `${plain}+t`) {
    return /tfrt_test\.|tfrt_tutorial\./.test(body) ? withTests : plain;
  }
  return undefined;
}
