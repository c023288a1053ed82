// Peak wasm memory of whatever runs in this process, measured the same way
// for every engine: each WebAssembly.Memory created in JS (pthreads builds
// import theirs) and each one an instance exports is remembered, and the
// peak is the sum of their sizes. Wasm memory only grows, so the size after
// a run is the peak up to it. Install before any engine loads its module.

const memories = new Set();

function remember(instance) {
  for (const value of Object.values(instance?.exports ?? {})) {
    if (value instanceof WebAssembly.Memory) memories.add(value);
  }
}

export function installMemoryProbe() {
  const NativeMemory = WebAssembly.Memory;
  WebAssembly.Memory = function Memory(descriptor) {
    const memory = new NativeMemory(descriptor);
    memories.add(memory);
    return memory;
  };
  WebAssembly.Memory.prototype = NativeMemory.prototype;
  Object.setPrototypeOf(WebAssembly.Memory, NativeMemory);

  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const result = await instantiate(...args);
    remember(result instanceof WebAssembly.Instance ? result : result.instance);
    return result;
  };
  const streaming = WebAssembly.instantiateStreaming;
  if (streaming) {
    WebAssembly.instantiateStreaming = async (...args) => {
      const result = await streaming(...args);
      remember(result.instance);
      return result;
    };
  }
  const NativeInstance = WebAssembly.Instance;
  WebAssembly.Instance = function Instance(module, imports) {
    const instance = new NativeInstance(module, imports);
    remember(instance);
    return instance;
  };
  WebAssembly.Instance.prototype = NativeInstance.prototype;
}

export function wasmMemoryBytes() {
  let total = 0;
  for (const memory of memories) total += memory.buffer.byteLength;
  return total;
}
