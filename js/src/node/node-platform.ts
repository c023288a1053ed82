// Installs the Node platform (file paths, cores, the threads build's
// Worker, worker mode's Worker). Imported for its effect by the Node entry, index-node.ts.

import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { installNodePlatform } from '../platform.js';
import { fileExists, readFileWithProgress } from './node-fs.js';
import { unrefPthreadWorkers, withWebWorkers } from './node-pthreads.js';
import { startNodeWorker } from './node-worker.js';

installNodePlatform({
  readFile: readFileWithProgress,
  fileExists,
  fileUrlToPath: (url) => fileURLToPath(url),
  pathToFileUrl: (path) => pathToFileURL(path),
  availableParallelism,
  withPthreadWorkers: withWebWorkers,
  unrefPthreadWorkers,
  startWorker: startNodeWorker,
});
