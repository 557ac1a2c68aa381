/**
 * Date parsing for freshness extraction: structured values (ISO 8601, RFC 2822, epoch) and the
 * date expressions people write in pages (numeric and with month names in several languages).
 * Pure; no Effect, no I/O.
 */

/** Which date a signal claims to be. */
export type DateType = "published" | "modified" | "created"

export interface DayDate {
  readonly y: number
  readonly m: number // 1-12
  readonly d: number // 1-31
  /** "HH:MM:SS" when known. */
  readonly time?: string
  /** "+02:00", "Z" when known. */
  readonly offset?: string
}

export const validDay = (y: number, m: number, d: number): boolean => {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false
  if (m < 1 || m > 12 || d < 1) return false
  const dim = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return d <= dim
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0")

/** ISO text of the date as written: the calendar day the page states, with time and offset when known. */
export const toIso = (x: DayDate): string => {
  const day = `${pad(x.y, 4)}-${pad(x.m)}-${pad(x.d)}`
  if (!x.time) return day
  return `${day}T${x.time}${x.offset ?? ""}`
}

export const dayKey = (x: DayDate): string => `${pad(x.y, 4)}-${pad(x.m)}-${pad(x.d)}`

/** Epoch milliseconds (UTC midnight of the stated day, or the instant when time and offset are known). */
export const toEpoch = (x: DayDate): number => {
  if (x.time && x.offset) {
    const t = Date.parse(toIso(x).replace(/([+-]\d{2})(\d{2})$/, "$1:$2"))
    if (!Number.isNaN(t)) return t
  }
  return Date.UTC(x.y, x.m - 1, x.d)
}

export const fromEpoch = (ms: number): DayDate => {
  const dt = new Date(ms)
  return {
    y: dt.getUTCFullYear(),
    m: dt.getUTCMonth() + 1,
    d: dt.getUTCDate(),
    time: `${pad(dt.getUTCHours())}:${pad(dt.getUTCMinutes())}:${pad(dt.getUTCSeconds())}`,
    offset: "Z"
  }
}

const monthNames: Record<string, number> = {}
const addMonths = (names: ReadonlyArray<string>) =>
  names.forEach((list, i) => list.split("|").forEach((n) => (monthNames[n] = i + 1)))
// English
addMonths(["january|jan", "february|feb", "march|mar", "april|apr", "may", "june|jun", "july|jul", "august|aug", "september|sep|sept", "october|oct", "november|nov", "december|dec"])
// German
addMonths(["januar|jänner|jän", "februar|feber", "märz|maerz|mär|mrz", "april", "mai", "juni", "juli", "august", "september", "oktober|okt", "november", "dezember|dez"])
// French
addMonths(["janvier|janv", "février|fevrier|févr|fevr", "mars", "avril|avr", "mai", "juin", "juillet|juil", "août|aout", "septembre", "octobre", "novembre", "décembre|decembre|déc"])
// Spanish, Portuguese, Italian, Dutch
addMonths(["enero|janeiro|gennaio|januari|ene", "febrero|fevereiro|febbraio|februari|fev", "marzo|março|marco|maart|mrt", "abril|aprile|abr", "mayo|maio|maggio|mei|mag", "junio|junho|giugno|giu", "julio|julho|luglio|lug", "agosto|augustus|ago", "septiembre|setiembre|setembro|settembre|set", "octubre|outubro|ottobre|oktober|out|ott", "noviembre|novembro|novembre", "diciembre|dezembro|dicembre|dic"])
// Polish (nominative and genitive), Czech, Swedish/Danish/Norwegian
addMonths(["styczeń|stycznia|leden|ledna|januar|januari", "luty|lutego|únor|února|februar|februari", "marzec|marca|březen|března|marts|mars", "kwiecień|kwietnia|duben|dubna", "maj|maja|květen|května", "czerwiec|czerwca|červen|června|juni", "lipiec|lipca|červenec|července|juli", "sierpień|sierpnia|srpen|srpna", "wrzesień|września|září", "październik|października|říjen|října|oktober", "listopad|listopada|listopadu", "grudzień|grudnia|prosinec|prosince|desember|december"])
// Turkish, Russian/Ukrainian (genitive forms as written in dates)
addMonths(["ocak|января|январь|січня|січень", "şubat|subat|февраля|февраль|лютого|лютий", "mart|марта|март|березня|березень", "nisan|апреля|апрель|квітня|квітень", "mayıs|mayis|мая|май|травня|травень", "haziran|июня|июнь|червня|червень", "temmuz|июля|июль|липня|липень", "ağustos|agustos|августа|август|серпня|серпень", "eylül|eylul|сентября|сентябрь|вересня|вересень", "ekim|октября|октябрь|жовтня|жовтень", "kasım|kasim|ноября|ноябрь|листопада|листопад", "aralık|aralik|декабря|декабрь|грудня|грудень"])
// Indonesian / Malay extras, Finnish-less; Romanian, Hungarian
addMonths(["ianuarie|január|januári", "februarie|február|februári", "martie|március|márciusi", "aprilie|április|áprilisi", "mai|május|májusi", "iunie|június|júniusi", "iulie|július|júliusi", "august|augusztus|augusztusi", "septembrie|szeptember|szeptemberi", "octombrie|október|októberi", "noiembrie|nopember|november", "decembrie|desember|december"])
// Arabic: the Egyptian/Gulf names (from the European ones) and the Levantine (Syriac) names
addMonths(["يناير|كانون الثاني", "فبراير|شباط", "مارس|آذار", "أبريل|ابريل|إبريل|نيسان", "مايو|أيار|ايار", "يونيو|يونيه|حزيران", "يوليو|يوليه|تموز", "أغسطس|اغسطس|آب", "سبتمبر|أيلول|ايلول", "أكتوبر|اكتوبر|تشرين الأول|تشرين الاول", "نوفمبر|تشرين الثاني", "ديسمبر|كانون الأول|كانون الاول"])

const monthAlternation = Object.keys(monthNames).sort((a, b) => b.length - a.length).map((n) => n.replace(/\./g, "\\.")).join("|")

export const monthOf = (name: string): number | undefined => monthNames[name.toLowerCase().replace(/\.$/, "")]

const twoDigitYear = (y: number) => (y < 100 ? (y >= 90 ? 1900 + y : 2000 + y) : y)

const validTime = (t: string | undefined) => {
  if (!t) return undefined
  const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(t)
  return m && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3]) <= 60 ? t : undefined
}

const mk = (y: number, m: number, d: number, time?: string, offset?: string): DayDate | undefined => {
  if (!validDay(y, m, d)) return undefined
  const t = validTime(time)
  return { y, m, d, ...(t ? { time: t } : {}), ...(t && offset ? { offset } : {}) }
}

const normOffset = (o: string | undefined): string | undefined => {
  if (!o) return undefined
  if (o === "Z" || o === "z") return "Z"
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(o)
  if (!m) return undefined
  return `${m[1]}${m[2]}:${m[3] ?? "00"}`
}

const isoRe = /^\s*(\d{4})-?(\d{2})-?(\d{2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?)?/
const isoLooseRe = /^\s*(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/

/**
 * Parses a machine-readable date value (meta content, JSON-LD, datetime attributes, headers):
 * ISO 8601 and close variants, RFC 2822 / HTTP dates, epoch seconds or milliseconds,
 * and as a last resort the human formats.
 */
export const parseStructured = (raw: string): DayDate | undefined => {
  const s = raw.trim()
  if (s.length === 0 || s.length > 200) return undefined
  if (/^\d{9,13}$/.test(s) && !/^(19|20)\d{6}$/.test(s)) {
    const n = Number(s)
    return fromEpoch(s.length >= 12 ? n : n * 1000)
  }
  let m = isoRe.exec(s)
  if (m) {
    const time = m[4] !== undefined ? `${pad(Number(m[4]))}:${m[5]}:${m[6] ?? "00"}` : undefined
    return mk(Number(m[1]), Number(m[2]), Number(m[3]), time, normOffset(m[7]))
  }
  m = isoLooseRe.exec(s)
  if (m) {
    const time = m[4] !== undefined ? `${pad(Number(m[4]))}:${m[5]}:${m[6] ?? "00"}` : undefined
    return mk(Number(m[1]), Number(m[2]), Number(m[3]), time)
  }
  if (/^\d{9,13}$/.test(s)) {
    const n = Number(s)
    const ms = s.length >= 12 ? n : n * 1000
    return fromEpoch(ms)
  }
  // RFC 2822 / HTTP-date: "Tue, 12 Mar 2024 10:00:00 GMT"
  const r = /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?\s*(GMT|UTC|Z|[+-]\d{4})?)?/.exec(s)
  if (r) {
    const mon = monthOf(r[2])
    if (mon) {
      const time = r[4] !== undefined ? `${r[4]}:${r[5]}:${r[6] ?? "00"}` : undefined
      const off = r[7] === undefined ? undefined : r[7] === "GMT" || r[7] === "UTC" || r[7] === "Z" ? "Z" : normOffset(r[7])
      return mk(Number(r[3]), mon, Number(r[1]), time, off)
    }
  }
  const found = findTextDates(s, 1)
  return found.length > 0 ? found[0].date : undefined
}

/** Parses an HTTP-date header value (RFC 9110 IMF-fixdate and the obsolete forms). */
export const parseHttpDate = (raw: string | undefined): DayDate | undefined => {
  if (!raw) return undefined
  const t = Date.parse(raw)
  if (Number.isNaN(t)) return parseStructured(raw)
  return fromEpoch(t)
}

export interface TextDate {
  readonly date: DayDate
  readonly index: number
  readonly text: string
  /** Day and month are both given explicitly (not a year-month). */
  readonly complete: boolean
}

const M = `(${monthAlternation})\\.?`

/** Weekday names (Sunday first) as pages write them before a date: English, German, French, Spanish, Italian, Dutch, Portuguese. */
const weekdayNames: ReadonlyArray<string> = [
  "sunday|sun|sonntag|so|dimanche|dim|domingo|dom|domenica|zondag|zo",
  "monday|mon|montag|mo|lundi|lun|lunes|lunedì|lunedi|maandag|ma|segunda-feira|segunda|seg",
  "tuesday|tues|tue|dienstag|di|mardi|mar|martes|martedì|martedi|dinsdag|terça-feira|terça|ter",
  "wednesday|wed|mittwoch|mi|mercredi|mer|miércoles|miercoles|mié|mercoledì|mercoledi|woensdag|wo|quarta-feira|quarta|qua",
  "thursday|thurs|thu|donnerstag|do|jeudi|jeu|jueves|jue|giovedì|giovedi|donderdag|quinta-feira|quinta|qui",
  "friday|fri|freitag|fr|vendredi|ven|viernes|vie|venerdì|venerdi|vrijdag|vr|sexta-feira|sexta|sex",
  "saturday|sat|samstag|sonnabend|sa|samedi|sam|sábado|sabado|sáb|sabato|zaterdag|za"
]
const weekdayOf = new Map<string, number>()
weekdayNames.forEach((list, i) => list.split("|").forEach((n) => weekdayOf.set(n, i)))
const WEEKDAY = `(?:(?<![\\p{L}])(${[...weekdayOf.keys()].sort((a, b) => b.length - a.length).join("|")})\\.?,?\\s+)?`
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay()

/** How a page writes all-numeric dates whose day and month could be swapped (3/4/2019). */
export interface NumericOrder {
  /** The page writes month first (US): 04/15/2019 on the same page, or an en-US page with no day-first date. */
  readonly monthFirst?: boolean
}
const TIME = `(?:,?\\s*(?:at|um|à|a las|alle|om|-|–|,)?\\s*(\\d{1,2})[:.h](\\d{2})(?:[:.](\\d{2}))?(?![:.]?\\d))?`
const textPatterns: ReadonlyArray<{ re: RegExp; build: (g: RegExpExecArray, order: NumericOrder) => DayDate | undefined }> = [
  // ISO-like 2024-03-12 (optionally with time)
  {
    re: /(?<![\d.\-/])(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?(?![\d])/g,
    build: (g) => mk(Number(g[1]), Number(g[2]), Number(g[3]), g[4] ? `${pad(Number(g[4]))}:${g[5]}:${g[6] ?? "00"}` : undefined)
  },
  // 2024/03/12, 2024.03.12
  { re: /(?<![\d.\-/])(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?![\d/])/g, build: (g) => mk(Number(g[1]), Number(g[2]), Number(g[3])) },
  // 12.03.2024, 12/03/2024 (day first: European pages dominate dotted dates), 12-03-2024; also two-digit years with dots
  {
    re: new RegExp(`(?<![\\d.\\-/])${WEEKDAY}(\\d{1,2})([./-])(\\d{1,2})\\3(\\d{4}|\\d{2})(?![\\d])${TIME}`, "giu"),
    build: (g, order) => {
      const a = Number(g[2]), b = Number(g[4])
      const y = twoDigitYear(Number(g[5]))
      if (g[5].length === 2 && g[3] !== ".") return undefined
      // Day first, unless that reading is impossible (04/15/2019, 03-15-2011), a weekday written
      // before the date fits only the month-first reading, or the page writes month first.
      let d = a, mo = b
      const swap = () => { d = b; mo = a }
      if (b > 12 && a <= 12) swap()
      else if (a <= 12 && b <= 12 && a !== b) {
        const wd = g[1] === undefined ? undefined : weekdayOf.get(g[1].toLowerCase())
        if (wd !== undefined && validDay(y, a, b) && weekday(y, a, b) === wd && !(validDay(y, b, a) && weekday(y, b, a) === wd)) swap()
        else if (wd === undefined && order.monthFirst && g[3] !== ".") swap()
      }
      const time = g[6] ? `${pad(Number(g[6]))}:${g[7]}:${g[8] ?? "00"}` : undefined
      return mk(y, mo, d, time)
    }
  },
  // A range of days in one month, 14. - 20. Januar 2022, 12–14 June 2024: its first day (the
  // week a report covers, an event's opening day).
  {
    re: new RegExp(`(?<![\\p{L}\\d.])(\\d{1,2})\\.?\\s*[-–—]\\s*(\\d{1,2})\\.?\\s*${M},?\\s+(\\d{4})(?![\\d])`, "giu"),
    build: (g) => {
      const mo = monthOf(g[3])
      return mo && Number(g[1]) < Number(g[2]) && validDay(Number(g[4]), mo, Number(g[2])) ? mk(Number(g[4]), mo, Number(g[1])) : undefined
    }
  },
  // March 3–5, 2024
  {
    re: new RegExp(`(?<![\\p{L}])${M}\\s+(\\d{1,2})\\s*[-–—]\\s*(\\d{1,2}),?\\s+(\\d{4})(?![\\d])`, "giu"),
    build: (g) => {
      const mo = monthOf(g[1])
      return mo && Number(g[2]) < Number(g[3]) && validDay(Number(g[4]), mo, Number(g[3])) ? mk(Number(g[4]), mo, Number(g[2])) : undefined
    }
  },
  // 12 March 2024, 12. März 2024, 12 de marzo de 2024, 12-Mar-2024
  {
    re: new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})(?:st|nd|rd|th|er|\\.|º)?(?:\\s+de|\\s*[-/])?\\s*${M}(?:\\s+de|,|\\s*[-/])?\\s+?(\\d{4})(?![\\d])${TIME}`, "giu"),
    build: (g) => {
      const mo = monthOf(g[2])
      if (!mo) return undefined
      const time = g[4] ? `${pad(Number(g[4]))}:${g[5]}:${g[6] ?? "00"}` : undefined
      return mk(Number(g[3]), mo, Number(g[1]), time)
    }
  },
  // March 12, 2024; Mar 12th 2024
  {
    re: new RegExp(`(?<![\\p{L}])${M}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?![\\d])${TIME}`, "giu"),
    build: (g) => {
      const mo = monthOf(g[1])
      if (!mo) return undefined
      const time = g[4] ? `${pad(Number(g[4]))}:${g[5]}:${g[6] ?? "00"}` : undefined
      return mk(Number(g[3]), mo, Number(g[2]), time)
    }
  },
  // 2024年3月12日 (CJK)
  { re: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/g, build: (g) => mk(Number(g[1]), Number(g[2]), Number(g[3])) }
]

/** Arabic-Indic and Persian digits as ASCII digits (one character each, so indices hold). */
export const asciiDigits = (text: string): string =>
  /[\u0660-\u0669\u06f0-\u06f9]/.test(text)
    ? text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (c) => String(c.charCodeAt(0) & 0xf))
    : text

/** Finds dates written in text, in order of appearance. */
export const findTextDates = (raw: string, limit = 50, order: NumericOrder = {}): Array<TextDate> => {
  const out: Array<TextDate> = []
  const text = asciiDigits(raw)
  // Every pattern needs a four-digit year or a dotted two-digit year: skip text without one.
  if (!/(?:19|20)\d\d|\d\.\d{1,2}\.\d\d/.test(text)) return out
  const taken: Array<[number, number]> = []
  for (const p of textPatterns) {
    p.re.lastIndex = 0
    let g: RegExpExecArray | null
    while ((g = p.re.exec(text)) !== null) {
      const start = g.index, end = start + g[0].length
      if (taken.some(([a, b]) => start < b && end > a)) continue
      const date = p.build(g, order)
      if (date) {
        taken.push([start, end])
        out.push({ date, index: start, text: g[0], complete: true })
        if (out.length >= limit) break
      }
    }
    if (out.length >= limit) break
  }
  out.sort((a, b) => a.index - b.index)
  return out
}

/** URL path dates: /2024/03/12/, /2024-03-12-, /20240312/ (complete), or /2024/03/ (year-month). */
export const urlDate = (url: string): { date: DayDate; complete: boolean } | undefined => {
  let path = url
  try {
    const u = new URL(url)
    path = decodeURIComponent(u.pathname + u.search)
  } catch { /* keep raw */ }
  // Separators may differ (`/2021/0312/`, `/2020-02/19/`), but a dot after the year must be
  // followed by a dot: `jms.2020.0412` in a DOI is an article number, not a date.
  let m = /(?:^|[/_\-.=])((?:19|20)\d{2})([/_\-.]?)(0[1-9]|1[0-2])([/_\-.]?)(0[1-9]|[12]\d|3[01])(?=$|[/_\-.?&#a-z])/i.exec(path)
  if (m && !(m[2] === "." && m[4] !== ".")) {
    const date = mk(Number(m[1]), Number(m[3]), Number(m[5]))
    if (date) return { date, complete: true }
  }
  m = /\/((?:19|20)\d{2})\/(0?[1-9]|1[0-2])\/(0?[1-9]|[12]\d|3[01])(?:\/|$)/.exec(path)
  if (m) {
    const date = mk(Number(m[1]), Number(m[2]), Number(m[3]))
    if (date) return { date, complete: true }
  }
  m = /(?:^|[/~_\-])(0[1-9]|[12]\d|3[01])[-_.](0[1-9]|1[0-2])[-_.]((?:19|20)\d{2})(?=$|[/_\-.?&#])/.exec(path)
  if (m) {
    const date = mk(Number(m[3]), Number(m[2]), Number(m[1]))
    if (date) return { date, complete: true }
  }
  m = /\/((?:19|20)\d{2})[/\-_](0[1-9]|1[0-2])(?:\/|$|[\-_])/.exec(path)
  if (m) {
    const date = mk(Number(m[1]), Number(m[2]), 1)
    if (date) return { date, complete: false }
  }
  return undefined
}

const relativeUnits: Record<string, number> = {
  minute: 1 / 1440, minutes: 1 / 1440, min: 1 / 1440, mins: 1 / 1440,
  hour: 1 / 24, hours: 1 / 24, hr: 1 / 24, hrs: 1 / 24,
  day: 1, days: 1, week: 7, weeks: 7, month: 30, months: 30, year: 365, years: 365,
  tag: 1, tagen: 1, tage: 1, woche: 7, wochen: 7, stunde: 1 / 24, stunden: 1 / 24, monat: 30, monaten: 30
}

/**
 * Relative expressions that name an update or publication: "updated 3 days ago",
 * "published 2 hours ago", "vor 3 Tagen aktualisiert". Returns days before now.
 */
export const findRelative = (text: string): Array<{ days: number; kind: "published" | "modified"; text: string }> => {
  const out: Array<{ days: number; kind: "published" | "modified"; text: string }> = []
  if (!/\bago\b|\bvor\b/i.test(text)) return out
  const re = /\b(updated|last updated|modified|edited|published|posted)\s*:?\s*(\d{1,3}|an?|one)\s+(minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago\b/gi
  let g: RegExpExecArray | null
  while ((g = re.exec(text)) !== null) {
    const n = /^\d+$/.test(g[2]) ? Number(g[2]) : 1
    const unit = relativeUnits[g[3].toLowerCase()]
    if (unit === undefined) continue
    const kind = /publish|posted/i.test(g[1]) ? "published" : "modified"
    out.push({ days: n * unit, kind, text: g[0] })
  }
  const de = /\b(aktualisiert|veröffentlicht)\s+vor\s+(\d{1,3}|einem|einer)\s+(minuten?|stunden?|tagen?|wochen?|monaten?)/gi
  while ((g = de.exec(text)) !== null) {
    const n = /^\d+$/.test(g[2]) ? Number(g[2]) : 1
    const key = g[3].toLowerCase()
    const unit = relativeUnits[key] ?? (key.startsWith("minute") ? 1 / 1440 : key.startsWith("stunde") ? 1 / 24 : key.startsWith("tag") ? 1 : key.startsWith("woche") ? 7 : 30)
    out.push({ days: n * unit, kind: /veröffentlicht/i.test(g[1]) ? "published" : "modified", text: g[0] })
  }
  return out
}
