// A tool's text made on another thread and kept as its UTF-8 bytes, so a thread that only passes it on (the main
// thread, between the message reader and an engine's thread) never copies or decodes it.

/** A tool result as this module sees it (types.ts's ToolResult, which imports EncodedText from here). */
interface TextResult {
  ok: boolean
  readonly content: string
}

/** Characters of a result kept in a call's record. */
export const PREVIEW_CHARS = 200

/** The text's bytes (one whole ArrayBuffer, so it can be transferred) and its first PREVIEW_CHARS characters. */
export interface EncodedText {
  utf8: Uint8Array<ArrayBuffer>
  preview: string
}

export function encodeText(text: string): EncodedText {
  return { utf8: new TextEncoder().encode(text), preview: text.slice(0, PREVIEW_CHARS) }
}

// Kept off the result's enumerable keys: a clone or a deep-equal sees a plain { ok, content } result.
const ENCODED = Symbol('encoded content')

interface EncodedSlot {
  encoded: EncodedText | null
}

/** A successful result whose content is decoded only when read on this thread. */
export function encodedResult(encoded: EncodedText): TextResult {
  const slot: EncodedSlot = { encoded }
  let decoded: string | undefined
  const result = {
    ok: true,
    get content(): string {
      if (decoded !== undefined) return decoded
      if (!slot.encoded) throw new Error('this tool result was handed to another thread')
      return (decoded = new TextDecoder().decode(slot.encoded.utf8))
    },
  }
  Object.defineProperty(result, ENCODED, { value: slot })
  return result
}

/** What a call's record keeps of its result, without decoding an encoded one. */
export function previewOf(result: TextResult): string {
  const slot = (result as { [ENCODED]?: EncodedSlot })[ENCODED]
  return slot?.encoded ? slot.encoded.preview : result.content.slice(0, PREVIEW_CHARS)
}

/**
 * The bytes of an encoded result, to transfer to another thread (the result's content can no longer be read
 * here); undefined for a plain result, or bytes that share their buffer (those are cloned with the result).
 */
export function takeBytes(result: TextResult): Uint8Array<ArrayBuffer> | undefined {
  const slot = (result as { [ENCODED]?: EncodedSlot })[ENCODED]
  const utf8 = slot?.encoded?.utf8
  if (!slot || !utf8 || utf8.byteOffset !== 0 || utf8.byteLength !== utf8.buffer.byteLength) return undefined
  slot.encoded = null
  return utf8
}

/** A tool's text, whether it came as a string or as UTF-8 bytes from another thread. */
export function decodedContent(output: string | EncodedText): string {
  return typeof output === 'string' ? output : new TextDecoder().decode(output.utf8)
}
