// The bundled samples: build/samples/index.json (written by `npm run
// fixtures`) and build/demo-samples/index.json (small programs the build
// writes), served under samples/ and samples/basic/.

export interface SampleInputHint {
  kind: 'digit' | 'image';
  /** digit: cells a side. */
  size?: number;
  shape?: number[];
  mean?: number[];
  std?: number[];
  /** A JSON file of class names, beside the sample. */
  labels?: string;
}

/** A sample as the manifests list it. */
interface SampleEntry {
  id?: string;
  name: string;
  file: string;
  dataFiles?: string[];
  format?: string;
  description?: string;
  input?: SampleInputHint;
  /** What the program prints when run (TFRT samples). */
  expectPrinted?: string;
  nodes?: number;
  /** Inputs to prefill: {method, inputs: [{dtype, shape, values} | scalar]}. */
  example?: { method: string; inputs: unknown[] };
}

/** A sample as the viewer opens it: URLs relative to the page. */
export interface Sample extends Omit<SampleEntry, 'id' | 'file' | 'dataFiles'> {
  id: string;
  url: string;
  dataFiles: string[];
}

interface Manifest {
  samples?: SampleEntry[];
}

async function readManifest(base: string): Promise<Sample[]> {
  try {
    const response = await fetch(`${base}index.json`);
    if (!response.ok) return [];
    const manifest = (await response.json()) as Manifest | Manifest['samples'];
    const list = Array.isArray(manifest) ? manifest : (manifest?.samples ?? []);
    return list.map((s) => ({
      ...s,
      id: s.id ?? s.file,
      url: `${base}${s.file}`,
      dataFiles: (s.dataFiles ?? []).map((f) => `${base}${f}`),
      input: s.input ? { ...s.input, labels: s.input.labels ? `${base}${s.input.labels}` : undefined } : undefined,
    }));
  } catch {
    return [];
  }
}

export async function loadSamples(): Promise<Sample[]> {
  const [fixtures, basic] = await Promise.all([readManifest('samples/'), readManifest('samples/basic/')]);
  return [...fixtures, ...basic];
}

const labelCache = new Map<string, Promise<string[] | undefined>>();

export function labelsFor(sample: Sample | null): Promise<string[] | undefined> {
  const url = sample?.input?.labels;
  if (!url) return Promise.resolve(undefined);
  let labels = labelCache.get(url);
  if (!labels) {
    labels = fetch(url).then((r) => (r.ok ? (r.json() as Promise<string[]>) : undefined), () => undefined);
    labelCache.set(url, labels);
  }
  return labels;
}
