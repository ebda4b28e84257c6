// A 64-bit digest of text (cyrb53's two multiply-xor lanes, both kept): tells inputs and entries apart in the
// config cache without node:crypto, whose first load costs about 4 ms of every start. Not for secrets.

/** 16 hex digits that change with any change to the text (collisions are chance, about 1 in 2^64). */
export function digest64(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return hex32(h2) + hex32(h1)
}

function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0')
}
