/**
 * A tiny element builder. Text always goes in as text nodes (never innerHTML), so data from
 * the API cannot inject markup; no `style` attribute is ever set (the CSP forbids inline style).
 */
export type Child = Node | string | number | null | undefined | false | ReadonlyArray<Child>

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener | ((e: any) => void)>

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Child>
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue
    if (name === "style") throw new Error("inline style is not allowed under the console CSP")
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value as EventListener)
    } else if (value === true) {
      el.setAttribute(name, "")
    } else {
      el.setAttribute(name, String(value))
    }
  }
  append(el, children)
  return el
}

export const append = (el: Node, children: ReadonlyArray<Child>): void => {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue
    if (Array.isArray(c)) append(el, c)
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)))
  }
}

export const replace = (el: Element, ...children: Array<Child>): void => {
  el.replaceChildren()
  append(el, children)
}

let idCounter = 0
export const uid = (prefix: string) => `${prefix}-${++idCounter}`

/** A labelled form field: the label's `for` points at the control. */
export const field = (label: string, control: HTMLElement, hint?: string): HTMLElement => {
  const id = control.id || uid("f")
  control.id = id
  return h("div", { class: "field" }, h("label", { for: id }, label), control, hint ? h("small", {}, hint) : null)
}

/** A meter bar: the width is set through the CSSOM, which the CSP allows. */
export const bar = (fraction: number, label: string, tone = ""): HTMLElement => {
  const fill = h("span", { class: `bar-fill ${tone}` })
  fill.style.width = `${Math.max(0, Math.min(1, fraction)) * 100}%`
  return h("span", { class: "bar", role: "img", "aria-label": label }, fill)
}

export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Child>>, caption?: string) =>
  h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      caption ? h("caption", {}, caption) : null,
      h("thead", {}, h("tr", {}, headers.map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c)))))
    )
  )

export const stat = (label: string, value: Child, note?: Child) =>
  h("div", { class: "stat" }, h("div", { class: "stat-label" }, label), h("div", { class: "stat-value" }, value), note ? h("div", { class: "stat-note" }, note) : null)

export const errorBox = (message: string) => h("p", { class: "error", role: "alert" }, message)

/** A form's submission: the button disabled while `run` runs, its failure shown in `status`. */
export const submitting = async (submit: HTMLButtonElement, status: HTMLElement, run: () => Promise<void>): Promise<void> => {
  submit.disabled = true
  status.replaceChildren()
  try {
    await run()
  } catch (err) {
    status.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)))
  } finally {
    submit.disabled = false
  }
}

export const fmt = {
  num: (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits }) : "–"),
  pct: (n: number) => (Number.isFinite(n) ? `${n.toLocaleString("en-US", { maximumFractionDigits: 1 })} %` : "–"),
  ms: (n: number | null | undefined) => (n === null || n === undefined ? "–" : `${n.toLocaleString("en-US", { maximumFractionDigits: 1 })} ms`),
  date: (iso: string | null | undefined) => {
    if (!iso) return "–"
    const d = new Date(iso)
    return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC").replace(/:\d\dZ$/, " UTC")
  },
  duration: (seconds: number | null | undefined) => {
    if (seconds === null || seconds === undefined) return "–"
    if (seconds < 60) return `${Math.round(seconds)} s`
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
    if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
    return `${Math.floor(seconds / 86400)} d ${Math.round((seconds % 86400) / 3600)} h`
  }
}
