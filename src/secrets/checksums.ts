// Check digits of the numbers the detector names: Luhn (cards), mod 97 (IBAN), and a few national ids.

/** Luhn's check over a string of digits (cards): every second digit from the right doubled. */
export function isLuhnValid(digits: string): boolean {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48
    if (digit < 0 || digit > 9) return false
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return digits.length > 0 && sum % 10 === 0
}

/** ISO 13616: the IBAN rotated, letters as 10..35, is 1 modulo 97. `iban` is compact and upper case. */
export function isIbanChecksumValid(iban: string): boolean {
  const rotated = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const char of rotated) {
    const code = char.charCodeAt(0)
    const value = code >= 65 && code <= 90 ? String(code - 55) : char
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'

/** Spanish DNI (8 digits + letter) or NIE (X/Y/Z + 7 digits + letter): the letter is the number mod 23. */
export function isSpanishIdValid(id: string): boolean {
  const compact = id.toUpperCase().replace(/[\s-]/g, '')
  const nie = /^([XYZ])(\d{7})([A-Z])$/.exec(compact)
  const dni = /^(\d{8})([A-Z])$/.exec(compact)
  if (nie) return DNI_LETTERS[Number(`${'XYZ'.indexOf(nie[1] ?? '')}${nie[2]}`) % 23] === nie[3]
  if (dni) return DNI_LETTERS[Number(dni[1]) % 23] === dni[2]
  return false
}

/** Portuguese NIF: 9 digits, the last a mod-11 check over the first 8 weighted 9..2. */
export function isPortugueseNifValid(nif: string): boolean {
  if (!/^[125689]\d{8}$/.test(nif)) return false
  let sum = 0
  for (let index = 0; index < 8; index++) sum += Number(nif[index]) * (9 - index)
  const check = 11 - (sum % 11)
  return (check >= 10 ? 0 : check) === Number(nif[8])
}

/**
 * German Steuer-ID: 11 digits, no leading 0, in the first 10 one digit twice or three times and the others at most
 * once, the last an ISO 7064 MOD 11,10 check.
 */
export function isGermanTaxIdValid(id: string): boolean {
  if (!/^[1-9]\d{10}$/.test(id)) return false
  const counts = new Map<string, number>()
  for (const digit of id.slice(0, 10)) counts.set(digit, (counts.get(digit) ?? 0) + 1)
  const repeated = [...counts.values()].filter((count) => count > 1)
  if (repeated.length !== 1 || (repeated[0] ?? 0) > 3) return false
  let product = 10
  for (const digit of id.slice(0, 10)) {
    let sum = (Number(digit) + product) % 10
    if (sum === 0) sum = 10
    product = (sum * 2) % 11
  }
  const check = 11 - product === 10 ? 0 : 11 - product
  return check === Number(id[10])
}

/** Shannon entropy of `text` in bits per character. */
export function entropyBitsPerChar(text: string): number {
  const counts = new Map<string, number>()
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const share = count / text.length
    bits -= share * Math.log2(share)
  }
  return bits
}
