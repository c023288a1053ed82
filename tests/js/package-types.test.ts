// The package's types as a consumer meets them: the tarball `npm pack`
// makes, installed into a fresh project, and every TypeScript/JavaScript
// example of the READMEs type-checked against its .d.ts files under strict
// settings (strict, exactOptionalPropertyTypes, no skipLibCheck), with
// moduleResolution bundler (DOM lib) and node16 (@types/node). The .d.ts
// files alone must also compile with neither the DOM library nor
// @types/node. And the README's API reference names every export.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const TYPE_ROOTS = path.join(REPO_ROOT, 'node_modules', '@types');
const DOCS = ['README.md', 'js/README.md', 'cpp/custom/README.md'];

const STRICT = { target: 'ES2022', strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false, typeRoots: [TYPE_ROOTS] };

interface Example {
  doc: string;
  line: number;
  code: string;
}

/** Every ```ts and ```js block of the docs, with where it starts. */
function examples(): Example[] {
  const out: Example[] = [];
  for (const doc of DOCS) {
    const lines = readFileSync(path.join(REPO_ROOT, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^```(ts|js|typescript|javascript)\s*$/.test(lines[i]!)) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end] !== '```') end++;
      out.push({ doc, line: start + 1, code: lines.slice(start, end).join('\n') });
      i = end;
    }
  }
  return out;
}

let project: string;

/** Runs tsc on a tsconfig; the diagnostics, or '' when it compiles. */
function typeCheck(config: object, name: string): string {
  const file = path.join(project, name);
  writeFileSync(file, JSON.stringify(config, null, 2));
  try {
    execFileSync(process.execPath, [TSC, '-p', file], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (err) {
    return `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}` || String(err);
  }
}

beforeAll(() => {
  const root = mkdtempSync(path.join(tmpdir(), 'trident-types-'));
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', root], { cwd: REPO_ROOT, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  project = path.join(root, 'app');
  const installed = path.join(project, 'node_modules', 'trident-runtime');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(root, packed), '-C', installed, '--strip-components=1']);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const files: string[] = [];
  examples().forEach((example, i) => {
    const name = `example${i}.ts`;
    // export {} makes each example a module, as a consumer's file is (top-level await).
    writeFileSync(path.join(project, name), `// ${example.doc}:${example.line}\n${example.code}\nexport {};\n`);
    files.push(name);
  });
  writeFileSync(path.join(project, 'files.json'), JSON.stringify(files));
}, 120_000);

describe('the packed package, type-checked as a consumer', () => {
  it('finds the examples to check', () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(4);
    expect(found.some((e) => e.doc === 'README.md' && e.code.includes('runTensors'))).toBe(true);
  });

  const consumers = [
    { name: 'bundler', what: 'moduleResolution bundler with the DOM library', options: { lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], module: 'ESNext', moduleResolution: 'bundler' } },
    { name: 'node16', what: 'moduleResolution node16 with @types/node', options: { lib: ['ES2022'], types: ['node'], module: 'Node16', moduleResolution: 'node16' } },
  ];
  for (const consumer of consumers) {
    it(`compiles every README example under ${consumer.what}`, () => {
      const files = JSON.parse(readFileSync(path.join(project, 'files.json'), 'utf8')) as string[];
      expect(typeCheck({ compilerOptions: { ...STRICT, ...consumer.options }, files }, `tsconfig.${consumer.name}.json`)).toBe('');
    }, 120_000);
  }

  it('compiles the .d.ts files with neither the DOM library nor @types/node', () => {
    writeFileSync(
      path.join(project, 'bare.ts'),
      [
        "import { Tensor, load, type AnyTensor, type LoadOptions } from 'trident-runtime';",
        'export async function first(bytes: Uint8Array, options: LoadOptions): Promise<AnyTensor | undefined> {',
        '  using model = await load(bytes, options);',
        "  const [y] = await model.runTensors([new Tensor('float32', [1, 2, 3])]);",
        '  return y;',
        '}',
      ].join('\n'),
    );
    const config = { compilerOptions: { ...STRICT, lib: ['ES2022'], types: [], module: 'ESNext', moduleResolution: 'bundler' }, files: ['bare.ts'] };
    expect(typeCheck(config, 'tsconfig.bare.json')).toBe('');
  }, 120_000);

  it('rejects what the types must reject (so the checks above can fail)', () => {
    writeFileSync(
      path.join(project, 'wrong.ts'),
      [
        "import { load, registerKernel } from 'trident-runtime';",
        "const model = await load('m.pte');",
        '// A union of typed arrays: no narrowing, no number element.',
        'const [y] = await model.runTensors();',
        'export const n: number = y!.data[0]!;',
        '// An async kernel.',
        "await registerKernel('a::b.out', async (_i, o) => { o[0]!.as('float32').data.fill(1); });",
        '// run() outputs are not all tensors.',
        'export const d = (await model.run())[0]!.data;',
      ].join('\n'),
    );
    const config = { compilerOptions: { ...STRICT, lib: ['ES2022', 'DOM'], types: [], module: 'ESNext', moduleResolution: 'bundler' }, files: ['wrong.ts'] };
    const errors = typeCheck(config, 'tsconfig.wrong.json');
    expect(errors).toMatch(/wrong\.ts\(5,\d+\): error TS2322/);
    expect(errors).toMatch(/wrong\.ts\(7,\d+\): error TS2345/);
    expect(errors).toMatch(/wrong\.ts\(9,\d+\): error TS2339/);
  }, 120_000);
});

describe('the packed package at run time', () => {
  it('loads with require() as well as import (Node 20.19+ loads the ES module)', () => {
    const probe = "const t = require('trident-runtime'); console.log(typeof t.load, typeof t.Tensor, typeof t.registerKernel);";
    const out = execFileSync(process.execPath, ['-e', probe], { cwd: project, encoding: 'utf8' });
    expect(out.trim()).toBe('function function function');
  });
});

describe("the README's API reference", () => {
  it('names every export of the package', () => {
    const index = path.join(REPO_ROOT, 'dist', 'js', 'index.d.ts');
    const program = ts.createProgram([index], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
    const checker = program.getTypeChecker();
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(index)!)!;
    const names = checker.getExportsOfModule(symbol).map((s) => s.getName());
    expect(names.length).toBeGreaterThan(40);
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const api = readme.slice(readme.indexOf('## JavaScript API'), readme.indexOf('## CLI'));
    const missing = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(api));
    expect(missing, 'exports the README does not mention').toEqual([]);
  });
});
