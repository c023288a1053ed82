// Yielding to the event loop between the slices of a cancellable run, so
// that an abort (or a worker's cancel message, or a page's input) is handled.

/**
 * Resolves in a new task. Node's setImmediate, else a MessageChannel:
 * setTimeout(0) is clamped to 4 ms once nested, which would add up over a
 * run's many slices.
 */
export function nextTask(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return new Promise((resolve) => void immediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
