// Opening a model: from files (picked or dropped, a program plus its .ptd
// data files), a URL (download progress, optionally kept in the browser's
// cache) or a bundled sample. Models load in worker mode, so neither
// loading nor running ever blocks the page.

import { load, type Model } from 'trident-runtime';
import { versionFromHeader, type OpenedFile } from './panels/overview-panel.js';
import type { Sample } from './samples.js';

export type ModelRequest =
  | { kind: 'files'; files: File[] }
  /** `dataUrls`: a .pte's .ptd files. */
  | { kind: 'url'; url: string; dataUrls: string[]; cache: boolean }
  | { kind: 'sample'; sample: Sample };

export interface OpenCallbacks {
  progress(loaded: number, total: number | undefined): void;
  printed(text: string): void;
  signal?: AbortSignal;
}

export interface Opened {
  model: Model;
  file: OpenedFile;
  sample: Sample | null;
}

const PROGRAM_EXTENSIONS = ['.pte', '.bpte', '.pt2', '.bef', '.mlir'];

export async function openModel(request: ModelRequest, callbacks: OpenCallbacks): Promise<Opened> {
  const options = {
    worker: true,
    // The weights panel reads every weight, delegates' included, as the
    // file stores them.
    keepFileBytes: true,
    onProgress: callbacks.progress,
    onPrint: callbacks.printed,
    signal: callbacks.signal,
  };
  if (request.kind === 'files') {
    const data = request.files.filter((f) => f.name.toLowerCase().endsWith('.ptd'));
    const programs = request.files.filter((f) => !data.includes(f));
    const program = programs.find((f) => PROGRAM_EXTENSIONS.some((e) => f.name.toLowerCase().endsWith(e))) ?? programs[0];
    if (!program) throw new Error('No program among the files: choose a .pte, .bpte, .pt2, .bef or .mlir file (and a .pte\'s .ptd data files with it).');
    const model = await load(program, { ...options, dataFiles: data });
    const head = new Uint8Array(await program.slice(0, 16).arrayBuffer());
    return {
      model,
      sample: null,
      file: { name: program.name, bytes: program.size, version: versionFromHeader(head, model.format), dataFiles: data.map((f) => f.name) },
    };
  }
  const url = request.kind === 'url' ? request.url : request.sample.url;
  const dataFiles = request.kind === 'sample' ? request.sample.dataFiles : request.dataUrls;
  const cache = request.kind === 'url' && request.cache;
  let size: number | undefined;
  const model = await load(new URL(url, location.href), {
    ...options,
    cache,
    dataFiles: dataFiles.map((d) => new URL(d, location.href)),
    onProgress: (loaded, total) => {
      size = total ?? loaded;
      callbacks.progress(loaded, total);
    },
  });
  const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() ?? url);
  return {
    model,
    sample: request.kind === 'sample' ? request.sample : null,
    file: {
      name,
      bytes: size,
      version: versionFromHeader(await firstBytes(url), model.format),
      dataFiles: dataFiles.map((d) => d.split('/').pop()!),
      description: request.kind === 'sample' ? request.sample.description : undefined,
    },
  };
}

/** The first bytes of a URL (a range request; the whole file's head if ranges are not served). */
async function firstBytes(url: string): Promise<Uint8Array> {
  try {
    const response = await fetch(url, { headers: { Range: 'bytes=0-15' } });
    if (!response.ok || !response.body) return new Uint8Array();
    const reader = response.body.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    return value ?? new Uint8Array();
  } catch {
    return new Uint8Array();
  }
}
