/**
 * Charts with uPlot (bundled; no CDN). uPlot sizes and positions its parts through the CSSOM,
 * which the console CSP allows. Each chart follows its container's width.
 */
import uPlot from "uplot"
import { h } from "./dom"

export interface Series {
  readonly label: string
  readonly values: ReadonlyArray<number | null>
  readonly color: string
  readonly dash?: ReadonlyArray<number>
  readonly unit?: string
}

const live = new Set<{ plot: uPlot; box: HTMLElement }>()
let observer: ResizeObserver | undefined

const watch = (plot: uPlot, box: HTMLElement) => {
  const entry = { plot, box }
  live.add(entry)
  observer ??= new ResizeObserver(() => {
    for (const e of live) {
      if (!e.box.isConnected) {
        e.plot.destroy()
        live.delete(e)
        continue
      }
      const width = Math.max(240, e.box.clientWidth)
      if (Math.abs(width - e.plot.width) > 2) e.plot.setSize({ width, height: e.plot.height })
    }
  })
  observer.observe(box)
}

/**
 * A time chart: `times` are ISO 8601 strings; `kind` "bars" draws columns (counts per day),
 * "lines" draws one line per series.
 */
export const timeChart = (options: {
  readonly title: string
  readonly times: ReadonlyArray<string>
  readonly series: ReadonlyArray<Series>
  readonly kind?: "lines" | "bars"
  readonly yLabel?: string
  readonly height?: number
}): HTMLElement => {
  const box = h("div", { class: "chart", role: "img", "aria-label": `${options.title}: chart` })
  const figure = h("figure", { class: "chart-figure" }, h("figcaption", {}, options.title), box)
  if (options.times.length === 0) {
    box.append(h("p", { class: "empty" }, "No requests in this period yet."))
    return figure
  }
  const xs = options.times.map((t) => Date.parse(t) / 1000)
  const data: uPlot.AlignedData = [xs, ...options.series.map((s) => s.values.map((v) => v ?? null))]
  const bars = options.kind === "bars" ? uPlot.paths.bars!({ size: [0.7, 60] }) : undefined
  // Bars are centred on their time: pad the x range by half a step so the outer ones show whole.
  const step = xs.length > 1 ? xs[1] - xs[0] : 86400
  const pad = options.kind === "bars" ? step / 2 : 0
  const xRange = (_u: uPlot, min: number, max: number): [number, number] =>
    min === max ? [min - (pad || 3600), max + (pad || 3600)] : [min - pad, max + pad]
  const draw = () => {
    const plot = new uPlot(
      {
        width: Math.max(240, box.clientWidth || 600),
        height: options.height ?? 220,
        cursor: { drag: { x: false, y: false } },
        legend: { show: true },
        scales: { x: { time: true, range: xRange }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: "#4b5563", grid: { stroke: "#e5e7eb" } },
          { stroke: "#4b5563", grid: { stroke: "#e5e7eb" }, label: options.yLabel, size: 60 }
        ],
        series: [
          { label: "time" },
          ...options.series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            dash: s.dash ? [...s.dash] : undefined,
            fill: options.kind === "bars" ? `${s.color}cc` : undefined,
            paths: bars,
            points: { show: options.kind !== "bars" && s.values.filter((v) => v !== null).length < 40, size: 6, fill: s.color },
            value: (_u: uPlot, v: number | null) => (v === null ? "–" : `${Number(v.toFixed(2))}${s.unit ?? ""}`)
          }))
        ]
      },
      data,
      box
    )
    watch(plot, box)
  }
  // Draw once the figure is in the document and has a width.
  requestAnimationFrame(() => (box.isConnected ? draw() : setTimeout(draw, 0)))
  return figure
}

export const palette = {
  blue: "#2563eb",
  orange: "#ea580c",
  green: "#16a34a",
  purple: "#7c3aed",
  red: "#dc2626",
  grey: "#6b7280"
}
