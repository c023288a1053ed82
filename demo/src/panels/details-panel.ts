// The properties of the box chosen on the graph: operator, arguments with
// dtypes and shapes, attributes, weights, and its time in the last profile.

import type { GraphPort } from 'trident-runtime';
import type { Box } from '../graph/view-graph.js';
import { dims } from '../graph/view-graph.js';
import { el, keyValueTable } from '../ui/dom.js';
import { formatMs } from '../ui/format.js';

export interface DetailsActions {
  openWeight(name: string): void;
  toggle(box: Box): void;
  isExpanded(box: Box): boolean;
  /** Time of the box in the last profile, if any. */
  timeOf(box: Box): { ms: number; share: number } | undefined;
}

export function renderDetails(root: HTMLElement, box: Box | null, actions: DetailsActions): void {
  if (!box) {
    root.replaceChildren(el('p', { class: 'muted', text: 'Click a node to see its operator, arguments and weights.' }));
    return;
  }
  const parts: HTMLElement[] = [];
  const node = box.node;
  if (!node) {
    const value = box.value !== undefined ? box.graph.values[box.value] : undefined;
    parts.push(el('h3', { text: box.label }));
    parts.push(keyValueTable([
      ['name', value?.name ?? ''],
      ['kind', value?.kind ?? ''],
      ['dtype', value?.dtype ?? ''],
      ['shape', dims(value?.shape)],
      ['graph', `${box.graph.kind} ${box.graph.name}`],
    ]));
    root.replaceChildren(...parts);
    return;
  }
  parts.push(el('h3', { class: 'op-name', text: node.op }));
  const rows: [string, string][] = [
    ['kind', node.kind],
    ['index', String(node.index)],
    ['graph', `${box.graph.kind} ${box.graph.name}`],
  ];
  if (node.location) rows.push(['location', node.location]);
  if (node.jumpTo !== undefined) rows.push(['jumps to', String(node.jumpTo)]);
  if (node.lowered?.length) rows.push(['runs as', `instructions ${node.lowered.join(', ')}`]);
  const time = actions.timeOf(box);
  if (time) rows.push(['time', `${formatMs(time.ms)} (${(time.share * 100).toFixed(1)}% of the run)`]);
  parts.push(keyValueTable(rows));

  if (box.subgraphs) {
    const open = actions.isExpanded(box);
    const button = el('button', { type: 'button', class: 'toggle-subgraph', text: open ? 'Close its subgraph' : `Open its subgraph (${box.detail ?? ''})` });
    button.addEventListener('click', () => actions.toggle(box));
    parts.push(button);
  }
  parts.push(portsTable('Inputs', node.inputs, box, actions), portsTable('Outputs', node.outputs, box, actions));
  if (node.attributes && Object.keys(node.attributes).length) {
    parts.push(el('h4', { text: 'Attributes' }));
    const rows2 = Object.entries(node.attributes).map(([k, v]) => [k, el('code', { text: compact(v) })] as [string, HTMLElement]);
    parts.push(keyValueTable(rows2, 'kv attributes'));
  }
  root.replaceChildren(...parts);
}

function portsTable(title: string, ports: GraphPort[], box: Box, actions: DetailsActions): HTMLElement {
  if (ports.length === 0) return el('div');
  const body = el('tbody');
  ports.forEach((port, i) => {
    const value = port.value !== undefined ? box.graph.values[port.value] : undefined;
    let what: Node | string;
    if (value?.weight) {
      const link = el('button', { type: 'button', class: 'link weight-link', text: value.weight, title: 'Show in Weights' });
      link.addEventListener('click', () => actions.openWeight(value.weight!));
      what = link;
    } else if (value) {
      what = value.name;
    } else {
      what = el('code', { text: compact(port.literal) });
    }
    const type = value ? (value.kind === 'tensor' ? `${value.dtype ?? '?'} ${dims(value.shape)}${value.dynamic ? ' (dynamic)' : ''}` : value.literal !== undefined ? `${value.kind} = ${compact(value.literal)}` : value.kind) : '';
    body.append(el('tr', {}, el('th', { text: port.name ?? String(i) }), el('td', {}, what), el('td', { class: 'type', text: type })));
  });
  return el('div', {}, el('h4', { text: title }), el('table', { class: 'ports' }, body));
}

function compact(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  if (text === undefined) return String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
