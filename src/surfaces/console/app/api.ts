/**
 * The console's only data source: the public API, with the key the user signed in with. The
 * key lives in sessionStorage (gone when the tab closes), never in a URL, a cookie or a log.
 */
const KEY = "domain-intel.apiKey"

export const session = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (key: string) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY)
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
  }
}

/** Called on a 401 so the page can return to the sign-in form. */
let onUnauthorized: (message: string) => void = () => {}
export const setUnauthorizedHandler = (f: (message: string) => void) => {
  onUnauthorized = f
}

export const request = async <A = any>(
  method: string,
  path: string,
  body?: unknown,
  key: string | null = session.get()
): Promise<A> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (key) headers.authorization = `Bearer ${key}`
  if (body !== undefined) headers["content-type"] = "application/json"
  let response: Response
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit", cache: "no-store" })
  } catch {
    throw new ApiError(0, "network_error", "The service could not be reached.")
  }
  if (response.status === 204) return undefined as A
  const text = await response.text()
  let data: any = undefined
  try {
    data = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON: reported below
  }
  if (!response.ok) {
    const code = data?.error?.code ?? `http_${response.status}`
    const message = data?.error?.message ?? `The service answered HTTP ${response.status}.`
    const error = new ApiError(response.status, code, message)
    if (response.status === 401 && key === session.get()) onUnauthorized(message)
    throw error
  }
  if (data === undefined) throw new ApiError(response.status, "invalid_response", "The service answered with no JSON.")
  return data as A
}

export const get = <A = any>(path: string) => request<A>("GET", path)
export const post = <A = any>(path: string, body?: unknown) => request<A>("POST", path, body)
export const patch = <A = any>(path: string, body: unknown) => request<A>("PATCH", path, body)
export const del = (path: string) => request<void>("DELETE", path)

export const qs = (params: Record<string, string | number | boolean | undefined | null>) => {
  const u = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, String(v))
  const s = u.toString()
  return s ? `?${s}` : ""
}

export const messageOf = (e: unknown): string =>
  e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e)
