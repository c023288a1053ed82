#!/usr/bin/env node
// trident: inspect and run models from the command line, and TFRT's
// mlir-to-bef and bef-run tools.
// A user of the public API (its Node entry, dist/js/index-node.js) only: build it first with
// `npm run build:js` (npm test and npm start do).
//
// Output contract: on success the result goes to stdout (with --json, exactly
// one JSON document); on failure, one line "trident: <message>" on stderr
// and exit code 1 (2 for a command line that cannot run, followed by the
// usage). mlir-to-bef and bef-run mirror TFRT's tools instead:
// their stdout, stderr and exit code are what tfrt_translate and
// bef_executor would give (a failure to start still follows the contract).

import { USAGE, UsageError, parseArgs } from './cli/args.mjs';

async function main(argv) {
  const args = parseArgs(argv);
  if (args.command === 'help') return USAGE;
  // Imported after argument parsing so that --help works before a build.
  const commands = await import('./cli/commands.mjs').catch((err) => {
    if (err.code === 'ERR_MODULE_NOT_FOUND' && /dist[\\/]js/.test(err.message)) {
      throw new Error("the JS API is not built (dist/js/ is missing); run 'npm run build:js'");
    }
    throw err;
  });
  return commands[args.command](args.file, args.options);
}

function oneLine(err) {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}

try {
  const output = await main(process.argv.slice(2));
  if (typeof output === 'string') {
    process.stdout.write(`${output}\n`);
  } else {
    // Tools that mirror TFRT's print their own streams and exit code.
    process.stdout.write(output.stdout);
    process.stderr.write(output.stderr);
    process.exitCode = output.exitCode;
  }
} catch (err) {
  process.stderr.write(`trident: ${oneLine(err)}\n`);
  if (err instanceof UsageError) process.stderr.write(`${USAGE}\n`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
