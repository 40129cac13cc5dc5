/**
 * Building the page's elements. Text is only ever set as text (`textContent`, text nodes), never
 * parsed as HTML: a dev_id such as `<img src=x onerror=alert(1)>` shows as those characters.
 */

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** The element of that id, which index.html has. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

export function meta(name: string): string {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  if (content === undefined) throw new Error(`index.html has no meta ${name}`);
  return content;
}

/** Offers text as a file download, as a link to it would. */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
