// The Node entry of trident-runtime (the package's "node" export
// condition): the browser entry's API, with the Node platform installed
// first so that file paths, file: URLs and the threads build's workers work.

import './node/node-platform.js';

export * from './index.js';
