// The `trident` CLI as a user runs it: a child process, checked on its exact
// stdout, its stderr line and its exit code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { encodeNpy } from '../helpers/npy.js';
import { CLI, REPO_ROOT } from '../helpers/paths.js';
import { CORPUS, PTE_CORPUS, SHARED_DIR, corpusFile, describeShared } from '../helpers/shared.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'trident-cli-'));

function trident(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** Failure contract: nothing on stdout, one "trident: ..." line on stderr, exit 1. */
function expectFailure(result: ReturnType<typeof trident>, message: RegExp): void {
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^trident: [^\n]+\n$/);
  expect(result.stderr).toMatch(message);
}

const JSON_RUN = /^\{"outputs":\[.*\],"ms":\d+(\.\d+)?\}\n$/;

describe('trident CLI without a program', () => {
  it('prints usage for --help', () => {
    const r = trident('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/trident run FILE \[--method NAME\] \[--input SPEC\]/);
  });

  it('fails with the usage and exit code 2 on a command line it cannot run', () => {
    const usageFailure = (result: ReturnType<typeof trident>, message: RegExp): void => {
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^trident: [^\n]+\nusage:\n  trident inspect FILE/);
      expect(result.stderr).toMatch(message);
    };
    usageFailure(trident(), /^trident: no command given\n/);
    usageFailure(trident('explode', 'x.pte'), /unknown command 'explode'/);
    usageFailure(trident('run'), /'run' needs a FILE/);
    usageFailure(trident('run', 'x.pte', '--frobnicate'), /unknown option --frobnicate/);
    usageFailure(trident('run', 'x.pte', '--method'), /option --method needs a value/);
    expectFailure(trident('run', 'x.pte', '--threads', 'many'), /--threads takes a positive integer, got 'many'/);
  });

  it('fails in one line on a missing or non-program file', () => {
    expectFailure(trident('inspect', path.join(tmp, 'missing.pte')), /cannot read '.*missing\.pte': no such file/);
    const junk = path.join(tmp, 'junk.pte');
    writeFileSync(junk, 'NOT_A_PTE, just some text\nwith two lines\n');
    expectFailure(trident('run', junk, '--json'), /unrecognized model file: first bytes 4e 4f 54 5f/);
  });
});

describe('trident CLI on fixture programs', () => {
  const add = fixture('add.pte'); // forward(a f32[2,2], b f32[2,2]) = a + b
  const t22 = (values: Array<number | string>) => JSON.stringify({ dtype: 'float32', shape: [2, 2], values });

  it('inspect --json describes the methods', () => {
    const r = trident('inspect', add, '--json');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    const tensor = { kind: 'Tensor', dtype: 'float32', shape: [2, 2], dynamism: 'static' };
    expect(json.format).toBe('pte');
    expect(json.methods).toHaveLength(1);
    expect(json.methods[0]).toMatchObject({ name: 'forward', inputs: [tensor, tensor], outputs: [tensor] });
  });

  it('inspect --graph --weights --json adds each method\'s graph and the weights', () => {
    const r = trident('inspect', fixture('mlp.pte'), '--graph', '--weights', '--json');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    const graph = json.graphs.forward;
    expect(graph.nodes.length).toBe(json.methods[0].instructions);
    expect(graph.nodes[0]).toMatchObject({ index: 0, kind: 'kernel' });
    expect(json.weights.length).toBeGreaterThan(0);
    expect(json.weights[0]).toMatchObject({ source: 'constant' });
  });

  it('inspect --graph prints one line per node, --weights a table', () => {
    const r = trident('inspect', fixture('mlp.pte'), '--graph', '--weights');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^forward: method, \d+ nodes$/m);
    expect(r.stdout).toMatch(/^ {2}0 aten::\S+\(.*\) -> /m);
    expect(r.stdout).toMatch(/^\d+ weights?, /m);
    expect(r.stdout).toMatch(/^name\s+dtype\s+shape\s+bytes\s+source$/m);
  });

  it('inspect prints a table by default', () => {
    const r = trident('inspect', fixture('multi_method.pte'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/: pte, 4 methods\n/);
    expect(r.stdout).toMatch(/^method\s+inputs\s+outputs\s+instructions\s+planned$/m);
    expect(r.stdout).toMatch(/^forward\s+float32\[2\]\s+float32\[2\]\s+\d+/m);
    expect(r.stdout).toMatch(/^get_answer\s+\(none\)\s+Int\s+0/m);
  });

  it('run --json prints exactly {"outputs":[...],"ms":N}', () => {
    const r = trident('run', add, '--input', t22([1, 2, 3, 4]), '--input', t22([10, 20, 30, 40]), '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(JSON_RUN);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(['outputs', 'ms']);
    expect(json.outputs).toEqual([{ dtype: 'float32', shape: [2, 2], values: [11, 22, 33, 44] }]);
    expect(json.ms).toBeGreaterThanOrEqual(0);
  });

  it('run prints readable outputs by default', () => {
    const r = trident('run', add, '--input', t22([1, 1, 1, 1]), '--input', t22([1, 2, 3, 4]));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^forward: 1 output in \d+\.\d{3} ms\n {2}0: float32\[2, 2\] = \[2, 3, 4, 5\]\n$/);
  });

  it('run --no-optimize runs the instructions as written', () => {
    const json = JSON.parse(trident('run', add, '--input', t22([1, 1, 1, 1]), '--input', t22([1, 2, 3, 4]), '--no-optimize', '--json').stdout);
    expect(json.outputs[0].values).toEqual([2, 3, 4, 5]);
  });

  it('run --profile prints the time per operator after the outputs', () => {
    const r = trident('run', add, '--input', t22([1, 1, 1, 1]), '--input', t22([1, 2, 3, 4]), '--profile');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^forward: 1 output in \d+\.\d{3} ms\n {2}0: float32\[2, 2\] = \[2, 3, 4, 5\]\nprofile: \d+\.\d{3} ms in instructions of \d+\.\d{3} ms for the call\noperator +instructions +calls +ms +of call\naten::add\.out +1 +1 +\d+\.\d{3} +\d+\.\d%\n$/,
    );
    const json = JSON.parse(trident('run', add, '--input', t22([1, 1, 1, 1]), '--input', t22([1, 2, 3, 4]), '--profile', '--json').stdout);
    expect(json.outputs).toEqual([{ dtype: 'float32', shape: [2, 2], values: [2, 3, 4, 5] }]);
    expect(json.profile.instructions).toMatchObject([{ index: 0, name: 'aten::add.out', calls: 1 }]);
    expect(json.profile.byOperator).toMatchObject([{ name: 'aten::add.out', instructions: 1, calls: 1 }]);
  });

  it('writes NaN and infinities as JSON strings', () => {
    const r = trident('run', add, '--input', t22(['NaN', 'Infinity', '-Infinity', 1]), '--input', t22([1, 1, 1, 1]), '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs[0].values).toEqual(['NaN', 'Infinity', '-Infinity', 2]);
  });

  it('reads .npy inputs', () => {
    const a = path.join(tmp, 'a.npy');
    const b = path.join(tmp, 'b.npy');
    writeFileSync(a, encodeNpy('float32', [2, 2], new Float32Array([1, 2, 3, 4])));
    writeFileSync(b, encodeNpy('float32', [2, 2], new Float32Array([0.5, 0.5, 0.5, 0.5]), { version: 2 }));
    const r = trident('run', add, '--input', a, '--input', b, '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs).toEqual([{ dtype: 'float32', shape: [2, 2], values: [1.5, 2.5, 3.5, 4.5] }]);

    const fortran = path.join(tmp, 'f.npy');
    writeFileSync(fortran, encodeNpy('float32', [2, 2], new Float32Array(4), { fortran: true }));
    expectFailure(trident('run', add, '--input', fortran, '--input', b), /Fortran-order/);
  });

  it('reads and writes int64 exactly: JSON integers beyond 2^53 are not rounded', () => {
    const ints = (dtype: string, values: unknown[]) => `{"dtype":"${dtype}","shape":[4],"values":[${values.join(',')}]}`;
    const r = trident(
      'run', fixture('int_types.pte'),
      '--input', ints('int32', [1, -2, 2147483000, 0]), '--input', ints('int32', [2, 3, 600, -7]),
      '--input', ints('int64', [1, 2, 4, '9007199254740993']), '--input', ints('int64', [4, 3, 2, '-9223372036854775807']), '--json',
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('{"dtype":"int64","shape":[4],"values":[5,5,6,-9214364837600034814]}');
  });

  it('prints the top values of each output with --top', () => {
    const r = trident('run', add, '--input', t22([1, 9, 3, 7]), '--input', t22([0, 0, 0, 0]), '--top', '2');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\ntop 2 of output 0:\n  \[1\] 9\n  \[3\] 7$/m);
    const json = JSON.parse(trident('run', add, '--input', t22([1, 9, 3, 7]), '--input', t22([0, 0, 0, 0]), '--top', '3', '--json').stdout);
    expect(json.top).toEqual([[{ index: 1, value: 9 }, { index: 3, value: 7 }, { index: 2, value: 3 }]]);
  });

  it('runs on the threads it is given', () => {
    const r = trident('run', add, '--input', t22([1, 2, 3, 4]), '--input', t22([1, 1, 1, 1]), '--threads', '1', '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs[0].values).toEqual([2, 3, 4, 5]);
  });

  it('prints what a TFRT program prints, before the outputs (and in "printed" with --json)', () => {
    const mlir = path.join(tmp, 'shout.mlir');
    writeFileSync(mlir, 'func.func @shout(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {\n  %ch1 = tfrt.print.i32 %x, %ch\n  tfrt.return %ch1 : !tfrt.chain\n}\n');
    const text = trident('run', mlir, '--input', '7', '--input', 'null');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^int32 = 7\nshout: 1 output in [\d.]+ ms\n  0: None\n$/);
    const json = JSON.parse(trident('run', mlir, '--input', '7', '--input', 'null', '--json').stdout);
    expect(json.printed).toBe('int32 = 7\n');
  });

  it('writes int64 tensors as exact JSON numbers', () => {
    const ints = (dtype: string, values: unknown[]) => JSON.stringify({ dtype, shape: [4], values });
    const r = trident(
      'run', fixture('int_types.pte'),
      '--input', ints('int32', [1, -2, 2147483000, 0]), '--input', ints('int32', [2, 3, 600, -7]),
      '--input', ints('int64', [1, 2, 4, '9007199254740993']), '--input', ints('int64', [4, 3, 2, 0]), '--json',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('{"dtype":"int64","shape":[4],"values":[5,5,6,9007199254740993]}');
    expect(r.stdout).toContain('{"dtype":"bool","shape":[4],"values":[true,true,false,false]}');
  });

  it('takes bare numbers and booleans for Int, Double and Bool inputs, and writes scalars as {type, value}', () => {
    const scalars = fixture('scalars.pte'); // (i, d, flag) -> ((i+5)*i, d*0.5+d, flag)
    const r = trident('run', scalars, '--input', '3', '--input', '2', '--input', 'true', '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs).toEqual([
      { type: 'Int', value: 24 },
      { type: 'Double', value: 3 },
      { type: 'Bool', value: true },
    ]);
    const negative = trident('run', scalars, '--input', '-4', '--input=-1.0', '--input', 'false', '--json');
    expect(JSON.parse(negative.stdout).outputs).toEqual([
      { type: 'Int', value: -4 },
      { type: 'Double', value: -1.5 },
      { type: 'Bool', value: false },
    ]);
    // --input flags are numbered from 0, as run() numbers inputs.
    expectFailure(trident('run', scalars, '--input', '2.5', '--input', '1', '--input', 'true'), /trident: --input 0: the input is an Int but 2\.5 is not an integer/);
    expectFailure(trident('run', scalars, '--input', '1', '--input', '1', '--input', '1'), /trident: --input 2: the input is a Bool; pass true or false/);
    const answer = trident('run', fixture('multi_method.pte'), '--method', 'get_answer', '--json');
    expect(JSON.parse(answer.stdout).outputs).toEqual([{ type: 'Int', value: 42 }]);
  });

  it('fails in one line on wrong inputs', () => {
    expectFailure(trident('run', add, '--input', t22([1, 2, 3, 4]), '--json'), /run\('forward'\): expected 2 inputs \(float32\[2, 2\], float32\[2, 2\]\), got 1/);
    expectFailure(trident('run', add, '--input', '3', '--input', t22([1, 2, 3, 4])), /--input 0: a bare number was given but the input is a float32\[2, 2\] tensor/);
    expectFailure(trident('run', add, '--input', '{"dtype":', '--input', t22([1, 2, 3, 4])), /--input 0: invalid JSON/);
    expectFailure(trident('run', add, '--input', 'nothing.npy', '--input', t22([1, 2, 3, 4])), /--input 0: 'nothing\.npy' is not a JSON tensor/);
    // The API's messages number inputs the same way.
    expectFailure(trident('run', add, '--input', t22([1, 2, 3, 4]), '--input', '{"dtype":"int32","shape":[2,2],"values":[1,2,3,4]}'), /run\('forward'\): input 1: dtype int32, expected float32/);
    expectFailure(trident('run', add, '--method', 'nope'), /no method 'nope' in this program/);
  });

  it('fails in one line on a program that needs a missing backend or operator', () => {
    expectFailure(trident('run', fixture('hostile/missing_backend.pte'), '--json'), /NoSuchBackend/);
    expectFailure(trident('inspect', fixture('hostile/missing_op.pte')), /custom::does_not_exist\.out/);
  });
});

describeShared('trident CLI on corpus programs', () => {
  it('prints 42.5 for the acceptance example', () => {
    const f32 = (v: number) => JSON.stringify({ dtype: 'float32', shape: [1], values: [v] });
    const r = trident('run', corpusFile(CORPUS.add), '--input', f32(13.25), '--input', f32(29.25), '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs).toEqual([{ dtype: 'float32', shape: [1], values: [42.5] }]);
  });

  it('runs a bundled program\'s embedded cases with --bundled, and inspects with --data', () => {
    const r = trident('run', corpusFile(CORPUS.bundled), '--bundled');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^case 0 \(forward\): ok, max abs error/);
    expect(r.stdout).toMatch(/\n10 passed, 0 failed\n$/);
    const json = JSON.parse(trident('run', corpusFile(CORPUS.bundled), '--bundled', '--json').stdout);
    expect(json.failed).toBe(0);
    expect(json.cases).toHaveLength(10);
    expectFailure(trident('run', corpusFile(CORPUS.add), '--bundled'), /--bundled: the file holds no bundled test cases \(it is a \.pte, not a \.bpte\)/);
    const inspect = trident('inspect', corpusFile(CORPUS.dataMap), '--data', corpusFile(CORPUS.dataMapPtd));
    expect(inspect.status).toBe(0);
    expect(inspect.stdout).toMatch(/forward\s+float32\[2, 2\]/);
    expectFailure(trident('inspect', corpusFile(CORPUS.dataMap)), /tensor 'a' lives in an external data file \(\.ptd\), and none was provided/);
  });

  it('loads external data with --data', () => {
    const r = trident(
      'run', corpusFile(CORPUS.dataMap), '--data', corpusFile(CORPUS.dataMapPtd),
      '--input', '{"dtype":"float32","shape":[2,2],"values":[1,2,3,4]}', '--json',
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs[0].values).toEqual([5, 8, 11, 14]);
  });

  it('fails in one line on a program delegated to a backend it does not have', () => {
    expectFailure(trident('run', corpusFile(CORPUS.ethosU), '--json'), /EthosUBackend/);
  });

  it('inspect shows each delegate: backend, node counts, each node with its shapes', () => {
    const r = trident('inspect', corpusFile(CORPUS.simpleTorchModel));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^forward: delegate 0 \(XnnpackBackend\), 5 nodes: Conv2d 1, DepthwiseConv2d 1, GlobalAvgPooling2d 1, StaticTranspose 2$/m,
    );
    expect(r.stdout).toMatch(/^forward: delegate 1 \(XnnpackBackend\), 1 node: FullyConnected 1$/m);
    expect(r.stdout).toMatch(
      /^1\s+DepthwiseConv2d\s+fp32\[1, 1024, 1024, 1\], fp32\[1, 3, 3, 8\], fp32\[8\]\s+fp32\[1, 1022, 1022, 8\]$/m,
    );
    const json = JSON.parse(trident('inspect', corpusFile(CORPUS.simpleTorchModel), '--json').stdout);
    const [first, second] = json.methods[0].delegates;
    expect(first.backend).toBe('XnnpackBackend');
    expect(first.nodeCounts).toEqual({ StaticTranspose: 2, DepthwiseConv2d: 1, Conv2d: 1, GlobalAvgPooling2d: 1 });
    expect(first.nodes[2]).toEqual({
      type: 'Conv2d',
      inputs: [
        { dtype: 'fp32', shape: [1, 1022, 1022, 8] },
        { dtype: 'fp32', shape: [16, 3, 3, 8] },
        { dtype: 'fp32', shape: [16] },
      ],
      outputs: [{ dtype: 'fp32', shape: [1, 1020, 1020, 16] }],
    });
    expect(second.nodes).toEqual([
      { type: 'FullyConnected', inputs: [{ dtype: 'fp32', shape: [1, 16] }, { dtype: 'fp32', shape: [10, 16] }, { dtype: 'fp32', shape: [10] }], outputs: [{ dtype: 'fp32', shape: [1, 10] }] },
    ]);
    const quantized = JSON.parse(trident('inspect', corpusFile(CORPUS.xnnpackQuantized), '--json').stdout);
    expect(quantized.methods[0].delegates[0].nodes.map((n: { type: string }) => n.type)).toEqual(['Convert', 'FullyConnected', 'Convert']);
    expect(quantized.methods[0].delegates[0].nodes[1].inputs.map((v: { dtype: string }) => v.dtype)).toEqual(['qint8', 'qint8', 'qint32']);
  });

  it('runs an XNNPACK-delegated program', () => {
    const r = trident(
      'run', corpusFile(CORPUS.xnnpack),
      '--input', '{"dtype":"float32","shape":[3],"values":[1,2,3]}',
      '--input', '{"dtype":"float32","shape":[3],"values":[10,20,30]}', '--json',
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outputs[0]).toEqual({ dtype: 'float32', shape: [3], values: [11, 22, 33] });
  });

  it('satisfies ../shared/tools/goldens.py on the programs it supports', () => {
    const checker = path.join(SHARED_DIR, 'tools', 'goldens.py');
    const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
    const files = [
      CORPUS.add, CORPUS.mul, CORPUS.dtypes, CORPUS.constMethods, CORPUS.bundled,
      'kadu-v__berry-executorch/resource__model__simple__two.pte',
      'pytorch__executorch/examples__arduino__examples__AddModel__model.pte',
      'pytorch__executorch/extension__module__test__resources__model.pte',
      CORPUS.xnnpack, CORPUS.xnnpackDynamic,
    ];
    const r = spawnSync(python, [checker, path.join(PTE_CORPUS, 'GOLDENS.json'), PTE_CORPUS, '--files', files.join(',')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stdout).toMatch(/^goldens: (\d+)\/\1 pass$/m);
    expect(r.status).toBe(0);
  });
});
