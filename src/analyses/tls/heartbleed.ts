/**
 * Heartbleed (CVE-2014-0160), safe probe, pure part. After the server's plaintext flight the
 * client sends one heartbeat request (RFC 6520 §4) whose payload_length claims more bytes than
 * the record carries. RFC 6520 §4 says such a message is discarded silently; a vulnerable server
 * echoes payload_length bytes of its memory instead. The answer is judged from the record header
 * alone: the probe stops reading there and never keeps the leaked bytes.
 */

/** Bytes the request really carries, and what it claims. */
const SENT_PAYLOAD = 16
const CLAIMED_PAYLOAD = 64

export const heartbeatRequest = (recordVersion: number): Uint8Array => {
  const payload = Buffer.from("domain-intel-hb!", "ascii").subarray(0, SENT_PAYLOAD)
  // HeartbeatMessage: type heartbeat_request (1), payload_length, payload; no padding.
  const message = [1, (CLAIMED_PAYLOAD >> 8) & 0xff, CLAIMED_PAYLOAD & 0xff, ...payload]
  return new Uint8Array([24, (recordVersion >> 8) & 0xff, recordVersion & 0xff, 0, message.length, ...message])
}

/** Length of the heartbeat record the request travels in (header excluded). */
export const HEARTBEAT_RECORD_LENGTH = 3 + SENT_PAYLOAD

export type HeartbeatVerdict = "vulnerable" | "not_vulnerable" | "incomplete"

/**
 * Judges what followed the request: a heartbeat record longer than the request is memory the
 * server should not have sent; an alert, other records or a closed connection are not.
 */
export const judgeHeartbeat = (bytes: Uint8Array, ended: boolean): HeartbeatVerdict => {
  let i = 0
  while (i + 5 <= bytes.length) {
    const type = bytes[i]
    const len = (bytes[i + 3] << 8) | bytes[i + 4]
    if (type === 24) return len > HEARTBEAT_RECORD_LENGTH ? "vulnerable" : "not_vulnerable"
    if (type === 21) return "not_vulnerable"
    i += 5 + len
  }
  return ended ? "not_vulnerable" : "incomplete"
}
