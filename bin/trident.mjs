#!/usr/bin/env node
// trident: inspect and run ExecuTorch programs from the command line.
// A user of the public API (dist/js/index.js) only: build it first with
// `npm run build:js` (npm test and npm start do).
//
// Output contract: on success the result goes to stdout (with --json, exactly
// one JSON document); on failure, one line "trident: <message>" on stderr
// and exit code 1.

import { USAGE, parseArgs } from './cli/args.mjs';

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
  process.stdout.write(`${output}\n`);
} catch (err) {
  process.stderr.write(`trident: ${oneLine(err)}\n`);
  process.exitCode = 1;
}
