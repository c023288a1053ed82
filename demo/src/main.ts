// The Trident viewer: open a model, see its graph, weights and profile, and
// run it. Each view lives in its own module; this one wires them together.

import './style.css';
import { Tensor, runtimeInfo, type InstructionProfile, type Model, type RunProfile } from 'trident-runtime';
import { GraphPanel } from './graph/graph-panel.js';
import type { Box } from './graph/view-graph.js';
import { openModel, type ModelRequest } from './open-model.js';
import { renderDetails } from './panels/details-panel.js';
import { renderOverview, type OpenedFile } from './panels/overview-panel.js';
import { PROFILE_RUNS, ProfilePanel, boxTimes, heat, medianProfile, slowestBox } from './panels/profile-panel.js';
import { WeightsPanel } from './panels/weights-panel.js';
import { RunPanel } from './run/run-panel.js';
import { loadSamples, type Sample } from './samples.js';
import { byId, el } from './ui/dom.js';
import { formatBytes } from './ui/format.js';
import { initTheme, toggleTheme } from './ui/theme.js';

type Tab = 'overview' | 'weights' | 'run' | 'profile';

const state: {
  model: Model | null;
  file: OpenedFile | null;
  sample: Sample | null;
  profile: { method: string; result: RunProfile; times: Map<string, number>; total: number } | null;
  selected: Box | null;
  loading: AbortController | null;
} = { model: null, file: null, sample: null, profile: null, selected: null, loading: null };

initTheme();
const graphPanel = new GraphPanel(byId<HTMLElement>('graph') as unknown as SVGSVGElement, byId('graph-status'), {
  select: (box) => selectBox(box),
  shown: () => {
    document.body.dataset.graph = 'shown';
    paintProfile();
  },
});
const weightsPanel = new WeightsPanel(byId('tab-weights'));
const runPanel = new RunPanel(byId('tab-run'));
const profilePanel = new ProfilePanel(byId('tab-profile'));
const methodSelect = byId<HTMLSelectElement>('method-select');
let samples: Sample[] = [];

// ---- opening -------------------------------------------------------------

async function open(request: ModelRequest, title: string): Promise<void> {
  state.loading?.abort();
  const controller = new AbortController();
  state.loading = controller;
  hideError();
  closeModel();
  document.body.dataset.state = 'loading';
  showProgress(title, 0, undefined);
  try {
    const opened = await openModel(request, {
      progress: (loaded, total) => showProgress(title, loaded, total),
      printed: (text) => runPanel.printed(text),
      signal: controller.signal,
    });
    if (state.loading !== controller) {
      opened.model.dispose();
      return;
    }
    state.model = opened.model;
    state.file = opened.file;
    state.sample = opened.sample;
    await showModel();
    document.body.dataset.state = 'open';
  } catch (err) {
    if (state.loading !== controller) return;
    document.body.dataset.state = 'error';
    showError(err, title);
  } finally {
    if (state.loading === controller) {
      state.loading = null;
      hideProgress();
    }
  }
}

function closeModel(): void {
  state.model?.dispose();
  state.model = null;
  state.file = null;
  state.sample = null;
  state.profile = null;
  state.selected = null;
  graphPanel.clear();
  weightsPanel.clear();
  runPanel.clear();
  profilePanel.clear();
  byId('tab-overview').replaceChildren();
  renderDetails(byId('details-body'), null, detailsActions);
  methodSelect.replaceChildren();
  delete document.body.dataset.graph;
  byId('model-name').textContent = '';
}

async function showModel(): Promise<void> {
  const model = state.model!;
  const file = state.file!;
  byId('welcome').hidden = true;
  byId('model-name').textContent = `${file.name} · ${model.format}`;
  methodSelect.replaceChildren(...model.methods.map((m) => new Option(m.name, m.name)));
  const method = model.defaultMethod ?? model.methods[0]?.name;
  if (method === undefined) throw new Error(`${file.name} has no methods to show`);
  methodSelect.value = method;
  runPanel.show(model, method, state.sample);
  showProfilePanel();
  await Promise.all([graphPanel.show(model, method), renderOverview(byId('tab-overview'), model, file), weightsPanel.show(model)]);
  if (state.sample?.input?.kind === 'digit' || state.sample?.input?.kind === 'image') showTab('run');
}

async function chooseMethod(method: string): Promise<void> {
  if (!state.model) return;
  state.selected = null;
  renderDetails(byId('details-body'), null, detailsActions);
  runPanel.show(state.model, method, state.sample);
  showProfilePanel();
  await graphPanel.show(state.model, method);
}

// ---- graph, details, find -------------------------------------------------

const detailsActions = {
  openWeight: (name: string) => {
    showTab('weights');
    void weightsPanel.select(name);
  },
  toggle: (box: Box) => graphPanel.toggle(box),
  isExpanded: (box: Box) => graphPanel.isExpanded(box.id),
  timeOf: (box: Box) => {
    const ms = state.profile?.method === graphPanel.method ? state.profile.times.get(box.id) : undefined;
    return ms === undefined ? undefined : { ms, share: ms / state.profile!.total };
  },
};

function selectBox(box: Box | null): void {
  state.selected = box;
  graphPanel.view.select(box?.id ?? null);
  renderDetails(byId('details-body'), box, detailsActions);
  byId('details').classList.toggle('has-selection', box !== null);
}

const findInput = byId<HTMLInputElement>('find-input');
const findResults = byId('find-results');
let matches: Box[] = [];
let matchIndex = -1;

function runFind(): void {
  matches = graphPanel.find(findInput.value);
  matchIndex = -1;
  graphPanel.view.setMatches(matches.map((b) => b.id));
  findResults.replaceChildren(
    ...matches.slice(0, 50).map((box, i) => {
      const item = el('li', { tabindex: 0, 'data-id': box.id, text: `${box.label}${box.parents.length ? ' (in a subgraph)' : ''}` });
      item.addEventListener('click', () => goToMatch(i));
      return item;
    }),
  );
  findResults.hidden = findInput.value.trim() === '';
  byId('find-count').textContent = findInput.value.trim() ? `${matches.length} found` : '';
}

function goToMatch(i: number): void {
  if (matches.length === 0) return;
  matchIndex = ((i % matches.length) + matches.length) % matches.length;
  const box = matches[matchIndex]!;
  graphPanel.reveal(box);
  selectBox(graphPanel.box(box.id) ?? box);
  findResults.hidden = true;
}

findInput.addEventListener('input', runFind);
// The list closes when focus leaves (after a click on one of its items has landed).
findInput.addEventListener('blur', () => setTimeout(() => (findResults.hidden = true), 200));
findInput.addEventListener('focus', () => (findResults.hidden = findInput.value.trim() === '' || matches.length === 0));
findInput.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') goToMatch(matchIndex + (e.shiftKey ? -1 : 1));
  if (e.key === 'Escape') {
    findInput.value = '';
    runFind();
    findInput.blur();
  }
});

// ---- profile -------------------------------------------------------------

function showProfilePanel(): void {
  const button = el('button', { type: 'button', class: 'primary profile-button', text: `Profile ${runPanel.method}` });
  button.addEventListener('click', () => void profile(button));
  const current = state.profile?.method === runPanel.method ? state.profile.result : null;
  profilePanel.show(button, current, runPanel.method, fusedNote, (ins) => {
    // The operators of the delegate's subgraph, from the graph shown (the profiled method's).
    const node = graphPanel.method === runPanel.method ? graphPanel.graph?.nodes[ins.source] : undefined;
    const sub = node?.subgraphs?.[0] !== undefined ? graphPanel.graph!.subgraphs[node.subgraphs[0]] : undefined;
    return sub?.nodes.map((n) => n.op) ?? [];
  });
}

function fusedNote(ins: InstructionProfile): string | null {
  return ins.sourceCount > 1 ? ` (runs instructions ${ins.source}–${ins.source + ins.sourceCount - 1}, fused)` : null;
}

async function profile(button: HTMLButtonElement): Promise<void> {
  const model = state.model;
  if (!model) return;
  const method = runPanel.method;
  button.disabled = true;
  button.textContent = `Profiling ${method}…`;
  try {
    const inputs = await runPanel.inputs();
    // One run first, as profilers do: a first run also pays for what runs once (memory first touched, caches).
    await model.run(method, inputs);
    // Then the median of a few profiled runs: one run's single slow instruction (a thread descheduled) is noise.
    const runs: RunProfile[] = [];
    for (let i = 0; i < PROFILE_RUNS; i++) runs.push(await model.profile(method, inputs));
    const result = medianProfile(runs);
    if (graphPanel.method !== method) {
      methodSelect.value = method;
      await graphPanel.show(model, method);
    }
    const every = graphPanel.everyBox();
    const times = boxTimes(result, every);
    const total = result.instructions.reduce((t, i) => t + i.ms, 0);
    state.profile = { method, result, times, total };
    paintProfile();
    // Show where the time went: the slowest box (inside its delegate, opened), selected.
    const box = slowestBox(times, every);
    if (box) {
      graphPanel.reveal(box);
      selectBox(box);
    }
    showProfilePanel();
    document.body.dataset.profiled = method;
  } catch (err) {
    showError(err, `Profiling ${method}`);
    button.disabled = false;
    button.textContent = `Profile ${method}`;
  }
}

function paintProfile(): void {
  const p = state.profile;
  if (!p || p.method !== graphPanel.method) {
    graphPanel.view.setFills(new Map());
    return;
  }
  // The heat scale runs to the slowest box that is not a delegate whose nodes are timed.
  const every = graphPanel.everyBox();
  const timedInside = new Set(every.filter((b) => p.times.has(b.id)).flatMap((b) => b.parents));
  const max = Math.max(0, ...[...p.times].filter(([id]) => !timedInside.has(id)).map(([, ms]) => ms));
  graphPanel.view.setFills(new Map([...p.times].map(([id, ms]) => [id, heat(max > 0 ? ms / max : 0)])));
}

// ---- tabs, errors, progress ---------------------------------------------

function showTab(tab: Tab): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
    const on = button.dataset.tab === tab;
    button.setAttribute('aria-selected', String(on));
    byId(`tab-${button.dataset.tab}`).hidden = !on;
  }
}

function showError(err: unknown, context: string): void {
  const box = byId('error');
  const e = err as { message?: string; codeName?: string };
  box.replaceChildren(
    el('strong', { text: `${context} failed` }),
    el('span', { class: 'error-message', text: `: ${e?.message ?? String(err)}` }),
  );
  if (e?.codeName) box.append(el('span', { class: 'error-code', text: ` (${e.codeName})` }));
  const close = el('button', { type: 'button', class: 'close-error', 'aria-label': 'Dismiss', text: '×' });
  close.addEventListener('click', hideError);
  box.append(close);
  box.hidden = false;
}

function hideError(): void {
  byId('error').hidden = true;
}

function showProgress(title: string, loaded: number, total: number | undefined): void {
  const bar = byId('progress');
  bar.hidden = false;
  bar.dataset.loaded = String(loaded);
  const fill = byId('progress-fill');
  fill.style.width = total ? `${Math.round((100 * loaded) / total)}%` : '100%';
  fill.classList.toggle('indeterminate', !total);
  byId('progress-text').textContent = `Opening ${title}… ${total ? `${formatBytes(loaded)} of ${formatBytes(total)}` : loaded ? formatBytes(loaded) : ''}`;
}

function hideProgress(): void {
  byId('progress').hidden = true;
}

// ---- wiring --------------------------------------------------------------

function openFiles(list: FileList | File[]): void {
  const files = [...list];
  if (files.length) void open({ kind: 'files', files }, files.map((f) => f.name).join(', '));
}

function openSample(id: string): void {
  const sample = samples.find((s) => s.id === id);
  if (sample) void open({ kind: 'sample', sample }, sample.name);
}

byId('open-button').addEventListener('click', () => byId<HTMLInputElement>('file-input').click());
byId<HTMLInputElement>('file-input').addEventListener('change', (e) => {
  const input = e.target as HTMLInputElement;
  if (input.files?.length) openFiles(input.files);
  input.value = '';
});
byId('url-form').addEventListener('submit', (e) => {
  e.preventDefault();
  // The program's URL, then any .ptd data files' URLs, separated by spaces.
  const [url, ...dataUrls] = byId<HTMLInputElement>('url-input').value.trim().split(/\s+/).filter(Boolean);
  if (url) void open({ kind: 'url', url, dataUrls, cache: byId<HTMLInputElement>('url-cache').checked }, url);
});
byId<HTMLSelectElement>('sample-select').addEventListener('change', (e) => {
  const select = e.target as HTMLSelectElement;
  if (select.value) openSample(select.value);
  select.value = '';
});
methodSelect.addEventListener('change', () => void chooseMethod(methodSelect.value));
for (const button of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
  button.addEventListener('click', () => showTab(button.dataset.tab as Tab));
}
byId('fit-button').addEventListener('click', () => graphPanel.view.fit());
byId('zoom-in').addEventListener('click', () => graphPanel.view.zoom(1.25));
byId('zoom-out').addEventListener('click', () => graphPanel.view.zoom(0.8));
byId('expand-all').addEventListener('click', () => graphPanel.expandAll(true));
byId('collapse-all').addEventListener('click', () => graphPanel.expandAll(false));
byId('export-svg').addEventListener('click', () => graphPanel.downloadSvg(exportName()));
byId('export-png').addEventListener('click', () => void graphPanel.downloadPng(exportName()).catch((err) => showError(err, 'PNG export')));
byId('theme-toggle').addEventListener('click', () => {
  toggleTheme();
  graphPanel.view.select(state.selected?.id ?? null);
});

function exportName(): string {
  return `${(state.file?.name ?? 'graph').replace(/\.[^.]+$/, '')}-${graphPanel.method}`;
}

// Drag and drop anywhere on the page.
let dragDepth = 0;
window.addEventListener('dragenter', (e) => {
  if (!e.dataTransfer?.types.includes('Files')) return;
  dragDepth++;
  document.body.classList.add('dragging');
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) document.body.classList.remove('dragging');
});
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  document.body.classList.remove('dragging');
  if (e.dataTransfer?.files.length) openFiles(e.dataTransfer.files);
});

// Keyboard: Ctrl/Cmd+F or / to find, F to fit, + and - to zoom, Esc to clear.
window.addEventListener('keydown', (e) => {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
  if ((e.key === 'f' && (e.ctrlKey || e.metaKey)) || (e.key === '/' && !typing)) {
    e.preventDefault();
    findInput.focus();
    findInput.select();
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'f' || e.key === 'F') graphPanel.view.fit();
  else if (e.key === '+' || e.key === '=') graphPanel.view.zoom(1.25);
  else if (e.key === '-') graphPanel.view.zoom(0.8);
  else if (e.key === 'Escape') selectBox(null);
});

async function start(): Promise<void> {
  renderDetails(byId('details-body'), null, detailsActions);
  profilePanel.clear();
  showTab('overview');
  samples = await loadSamples();
  const select = byId<HTMLSelectElement>('sample-select');
  select.replaceChildren(new Option(samples.length ? 'Open a sample…' : 'No bundled samples (run npm run fixtures)', ''), ...samples.map((s) => new Option(s.name, s.id)));
  select.disabled = samples.length === 0;
  byId('welcome-samples').replaceChildren(
    ...samples.map((s) => {
      const card = el('button', { type: 'button', class: 'sample-card', 'data-sample': s.id }, el('strong', { text: s.name }), el('span', { text: s.description ?? '' }));
      card.addEventListener('click', () => openSample(s.id));
      return card;
    }),
  );
  const fromQuery = new URLSearchParams(location.search);
  if (fromQuery.get('sample')) openSample(fromQuery.get('sample')!);
  else if (fromQuery.get('url')) {
    // ?url=PROGRAM&data=PTD&data=PTD2
    void open({ kind: 'url', url: fromQuery.get('url')!, dataUrls: fromQuery.getAll('data'), cache: false }, fromQuery.get('url')!);
  }
  runtimeInfo().then(
    (info) => {
      byId('runtime-info').textContent = `Trident ${info.version} · ${info.threads ? `threads build, ${info.numThreads} threads` : 'single-threaded build'}`;
    },
    (err) => showError(err, 'Starting the runtime'),
  );
  document.body.dataset.ready = 'true';
}

void start();

// For tests and the console: the viewer's state.
Object.assign(globalThis, { tridentViewer: { state, graphPanel, runPanel, Tensor } });
