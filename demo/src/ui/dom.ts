// Small DOM helpers: the viewer has no UI framework (see demo/README.md).

type Child = Node | string | null | undefined | false;

/** An element with attributes (class, data-*, aria-*, ...) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}

/** A two-column table from [label, value] rows. */
export function keyValueTable(rows: [string, Child][], className = 'kv'): HTMLTableElement {
  return el('table', { class: className }, el('tbody', {}, ...rows.map(([k, v]) => el('tr', {}, el('th', { text: k }), el('td', {}, v)))));
}
