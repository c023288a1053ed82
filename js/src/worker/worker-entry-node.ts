// The Node worker's entry (a worker_threads Worker started by
// node/node-platform.ts): the Node platform, then the same request handler
// as in browsers.

import { parentPort } from 'node:worker_threads';

import '../node/node-platform.js';
import type { CancelMessage, Request } from './protocol.js';
import { serveRequests } from './worker-host.js';

const port = parentPort;
if (port === null) throw new Error('worker-entry-node.js runs only as a worker_threads Worker');
const serve = serveRequests((reply, transfer) => port.postMessage(reply, transfer as never));
port.on('message', (message: Request | CancelMessage) => serve(message));
