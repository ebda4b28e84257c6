// Escaping HTML templates: every interpolated value is escaped unless it is already markup built here.

/** Markup that is safe to insert as is (built by `html` or `raw`). */
export class SafeHtml {
  readonly value: string
  constructor(value: string) {
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[]

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; nested `html` results and arrays pass through. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? ''
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '')
  })
  return new SafeHtml(out)
}

/** Trusted markup (our own constants only; never user or note text). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup)
}

/** A path segment for a link, e.g. a jid with ':' or '@'. */
export function segment(value: string): string {
  return encodeURIComponent(value)
}
