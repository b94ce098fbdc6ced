/**
 * HTML with every interpolated value escaped unless it is already `Html` (built by this tag): the one way pages are
 * written, so user-supplied text (key names, emails) cannot become markup. Arrays are joined; null, undefined and
 * false render nothing (for `cond && html\`…\``).
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => entities[ch]!);
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}
