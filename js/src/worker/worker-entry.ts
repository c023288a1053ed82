// The browser worker's entry: bundled with everything it imports into one
// file, dist/js/trident-worker.js (scripts/bundle-worker.mjs), which the page
// starts as a module worker.

import type { CancelMessage, Request } from './protocol.js';
import { serveRequests } from './worker-host.js';

interface WorkerScope {
  onmessage: ((event: { data: Request | CancelMessage }) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
const serve = serveRequests((reply, transfer) => scope.postMessage(reply, transfer));
scope.onmessage = (event) => serve(event.data);
