// Command-line parsing. Hand-written rather than util.parseArgs because
// parseArgs refuses option values that start with '-' ("--input -3").

export const USAGE = `usage:
  trident inspect FILE [--data FILE.ptd]... [--graph [--method NAME]] [--weights] [--json]
  trident run FILE [--method NAME] [--input SPEC]... [--data FILE.ptd]... [--bundled] [--threads N]
                   [--top K] [--profile] [--no-optimize] [--json]
  trident mlir-to-bef IN.mlir -o OUT.bef
  trident mlir-to-bef IN.mlir --verify-diagnostics [--split-input-file]
  trident bef-run [FILE.bef | -] [--verify-diagnostics SOURCE.mlir] [--functions a,b]
                  [--test_init_function NAME] [--print_error_code] [--work_queue_type=s|mstd[:N]]
                  [--allow-unknown-kernels]

SPEC: a .npy file, a JSON tensor '{"dtype":"float32","shape":[2,2],"values":[1,2,3,4]}',
      a number (Int or Double, as the method's input expects), true/false, or null (None).
NAME defaults to the file's only method, or to 'forward'. Without --input, a
file's stored sample inputs (a .pt2's data/sample_inputs) are used. Messages
number the --input flags from 0, as the API numbers inputs.
--bundled runs a .bpte's embedded test cases and compares each with its expected
outputs (exit 1 when one differs). --threads N spreads kernels over N threads.
--top K prints the K largest values of each output with their indices (classifiers).
Prints of TFRT programs (tfrt.print.*) go to stdout before the outputs (with --json,
into a "printed" field).
--profile runs the method 3 times to warm up, then once timing each instruction,
and prints the time per operator (and delegate). --no-optimize skips the load-time
graph passes (operator fusion), running the program's instructions as written.
inspect --graph prints every node of each method (or of --method NAME) with its
operator, arguments and results, and the nodes of nested graphs (a delegate's own,
a BEF kernel's region functions); --weights lists the constant tensors.
mlir-to-bef translates TFRT MLIR as tfrt_translate -mlir-to-bef does; bef-run
prints what TFRT's bef_executor prints (stdin when FILE is - or absent).`;

const OPTIONS = {
  inspect: { json: 'flag', data: 'list', graph: 'flag', weights: 'flag', method: 'value' },
  run: {
    json: 'flag',
    method: 'value',
    input: 'list',
    data: 'list',
    profile: 'flag',
    'no-optimize': 'flag',
    bundled: 'flag',
    threads: 'value',
    top: 'value',
  },
  'mlir-to-bef': { output: 'value', 'split-input-file': 'flag', 'verify-diagnostics': 'flag' },
  'bef-run': {
    'verify-diagnostics': 'value',
    functions: 'value',
    test_init_function: 'value',
    print_error_code: 'flag',
    work_queue_type: 'value',
    host_allocator_type: 'value',
    'allow-unknown-kernels': 'flag',
  },
};

// TFRT's tools take LLVM-style options, which may start with one dash
// (`-work_queue_type=mstd`); `-o` names the output.
function normalize(command, arg) {
  if (command === 'mlir-to-bef' && arg === '-o') return '--output';
  if (command === 'bef-run' && /^-[a-z_]{2,}/.test(arg)) return `-${arg}`;
  return arg;
}

const STDIN_OK = new Set(['bef-run']);

/** A command line that cannot run: the CLI prints the usage with it and exits 2. */
export class UsageError extends Error {}

/**
 * @returns {{command: string, file: string, options: Record<string, any>} | {command: 'help'}}
 */
export function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === undefined) throw new UsageError('no command given');
  const known = OPTIONS[command];
  if (known === undefined) {
    throw new UsageError(`unknown command '${command}'; expected inspect, run, mlir-to-bef or bef-run (see trident --help)`);
  }
  const options = { input: [], data: [] };
  const positionals = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = normalize(command, rest[i]);
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = known[name];
    if (kind === undefined) throw new UsageError(`unknown option --${name} for '${command}'`);
    if (kind === 'flag') {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      options[name] = true;
      continue;
    }
    let value;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < rest.length) value = rest[++i];
    else throw new UsageError(`option --${name} needs a value`);
    if (kind === 'list') options[name].push(value);
    else options[name] = value;
  }
  if (positionals.length === 0 && STDIN_OK.has(command)) positionals.push('-');
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? `'${command}' needs a FILE` : `'${command}' takes one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  return { command, file: positionals[0], options };
}
