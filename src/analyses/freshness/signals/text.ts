/** Dates written in the page's text: datelines, date links, relative expressions, copyright lines. */
import { type DateType, findRelative, findTextDates, type NumericOrder } from "../parse/dates"
import type { Ctx, Push, RawSignal } from "./types"

/** Characters besides the date that a block may hold and still be a dateline ("Posted on", "Stand:"). */
export const DATELINE_SLACK = 24
/** More standalone dates than this in the main content form a list, not a dateline. */
export const MAX_DATELINES = 3
/** The block's text is one written date and at most a short label. */
export const isDateline = (text: string, found: ReadonlyArray<{ readonly text: string }>) =>
  found.length === 1 && text.trim().length - found[0].text.length <= DATELINE_SLACK

/** Words that introduce a modification date just before it. */
const UPDATE = /(updated|aktualisiert|modified|geändert|actualizado|mis à jour|mise à jour|last edited|stand|atualizado|aggiornato|bijgewerkt|更新日?|수정)\s*[:：]?\s*(am|on|le|el|em|il|op)?\s*$/
/**
 * Words that introduce the page's own last change, wherever on the page (a footer's "Last
 * updated on", a wiki's "This page was last edited on", a hand-written page's "last change:").
 */
const PAGE_UPDATE = /(?:last\s+(?:updated|update|modified|edited|changed?|revised|reviewed)|page\s+updated|letzte\s+änderung|zuletzt\s+(?:geändert|aktualisiert|bearbeitet)|dernière\s+(?:mise à jour|modification)|última\s+(?:actualización|modificación|atualização)|ultim[oa]\s+(?:aggiornamento|modifica)|laatst\s+(?:gewijzigd|bijgewerkt)|ostatnia\s+aktualizacja|son\s+güncelleme|последнее\s+обновление|最終更新日?|最近更新|最后更新|최종\s*수정)(?:\s+(?:on|am|le|el|em|il|op|at))?\s*[:：]?\s*(?:on|am|le|el|em|il|op)?\s*$/
/** Words that introduce the publication date just before it. */
const PUBLISHED = /(?:published|posted|veröffentlicht|erschienen|publié|publicado|pubblicato|gepubliceerd|geplaatst|opublikowano|publicerad|公開日?|投稿日|发布(?:时间|日期)?|입력)\s*(?:on|am|le|el|il|op|em|at)?\s*[:：]?\s*(?:on|am|le|el|il|op|em)?\s*$/

/**
 * Words that introduce an event or a deadline rather than the page's date: "due 27.10.2009",
 * "open until", "Anmeldeschluss:", "jusqu'au", "hasta el".
 */
const EVENT = /(?:\bdue|\bdeadline|\buntil|\btill|\bcloses?(?:\s+on)?|\bbis(?:\s+(?:zum|spätestens))?|anmeldeschluss|einsendeschluss|abgabe(?:termin)?|\bfrist|jusqu['’]au|date limite|hasta(?:\s+el)?|plazo|fino al|scadenza|tot en met|uiterlijk)\s*[:：]?\s*(?:on|am|le|el|the)?\s*$/

/** A run of text in one context, at its place in the document. */
export interface TextPart {
  readonly text: string
  readonly ctx: Ctx
  readonly pos: number
}

/** Pushes the text parts' signals; returns the highest copyright year seen (null when none). */
export const textSignals = (textParts: ReadonlyArray<TextPart>, push: Push, order: NumericOrder = {}): number | null => {
  let copyrightYear: number | null = null
  // Text: copyright lines, relative expressions, written dates.
  const parts = textParts.map((part) => {
    const text = part.text.replace(/\s+/g, " ")
    const found = findTextDates(text, 40, order)
    const eventOnly = found.length === 1 && EVENT.test(text.slice(Math.max(0, found[0].index - 40), found[0].index).toLowerCase())
    return { part, text, found, dateline: isDateline(text, found) && !eventOnly && !part.ctx.link && !part.ctx.hinted && !part.ctx.boiler && !part.ctx.comment }
  })
  // A block whose whole text is one date is a dateline, as telling as an element whose class says
  // "date"; many of them are a list (an archive, results, events), which tells nothing.
  const datelines = parts.filter((p) => p.dateline).length <= MAX_DATELINES
  // Date links in date elements of the main content: a dateline linking to its archive, unless
  // there are many (a list of publications or posts).
  const linkLines = parts.filter((p) => p.part.ctx.link && p.part.ctx.hinted && !p.part.ctx.boiler && !p.part.ctx.comment && p.found.length > 0).length <= MAX_DATELINES
  for (const { part, text, found, dateline: alone } of parts) {
    const dateline = alone && datelines
    let sub = 0
    const at = () => part.pos + (sub++) / 100
    const copy = /©|\(c\)|opyright/i.test(text) ? /(?:©|\(c\)|copyright)\s*(?:\d{4}\s*[-–]\s*)?((?:19|20)\d{2})/i.exec(text) : null
    if (copy) {
      const y = Number(copy[1])
      if (copyrightYear === null || y > copyrightYear) copyrightYear = y
    }
    const region: RawSignal["region"] = part.ctx.comment ? "comment" : part.ctx.boiler ? "boilerplate" : "main"
    for (const r of findRelative(text)) {
      push({ source: "text:relative", type: r.kind, date: { y: 1970, m: 1, d: 1 }, region, relativeDays: r.days, raw: r.text, order: at() })
    }
    for (const f of found) {
      // Copyright lines are traps: flagged so selection uses them only as the very last resort.
      const before = text.slice(Math.max(0, f.index - 40), f.index)
      const isCopyright = /©|copyright|\(c\)/i.test(before)
      const lower = before.toLowerCase()
      const pageUpdate = PAGE_UPDATE.test(lower)
      const event = !pageUpdate && EVENT.test(lower)
      const published = !pageUpdate && !event && PUBLISHED.test(lower)
      const type: DateType = pageUpdate || UPDATE.test(lower) || (part.ctx.modified === true && !published) ? "modified" : "published"
      push({
        ...(part.ctx.list ? { list: part.ctx.list } : {}),
        ...(pageUpdate ? { pageUpdate } : {}),
        ...(event ? { event } : {}),
        ...(published ? { published } : {}),
        source: part.ctx.link ? "text:link" : part.ctx.hinted || dateline ? "text:date-element" : "text",
        type,
        date: f.date,
        region: isCopyright ? "copyright" : region,
        hinted: part.ctx.link ? part.ctx.hinted && linkLines && region === "main" : part.ctx.hinted || dateline,
        raw: f.text,
        order: at()
      })
    }
  }
  return copyrightYear
}
