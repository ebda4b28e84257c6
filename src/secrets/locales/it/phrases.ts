// Italian phrases that name a secret: "la mia password è …", "la password del wifi è …", "il mio PIN è …".
import type { LocalePhrases } from '../../parsers/phrases.js'

export const IT_PHRASES: LocalePhrases = {
  locale: 'it',
  nouns: [
    { kind: 'wifi-password', pattern: '(?:password|chiave)\\s+(?:del|della)\\s+(?:wi-?fi|rete|router)' },
    { kind: 'one-time-code', pattern: 'codice di (?:verifica|conferma|sicurezza|accesso)' },
    { kind: 'pin', pattern: '(?:codice\\s+)?pin(?:\\s+del(?:la)?\\s+(?:carta|bancomat|telefono))?' },
    { kind: 'passport', pattern: '(?:numero del\\s+)?passaporto' },
    { kind: 'national-id', pattern: "codice fiscale|(?:numero della\\s+)?carta d'identità" },
    { kind: 'password', pattern: 'password|parola d’ordine|parola chiave' },
  ],
  copulas: 'è|era|sarà|adesso è',
  qualifiers: '(?:del|della|di|per)\\s+(?:il|la|mio|mia)?\\s*[\\p{L}\\p{N}-]+',
  notValues: [
    'il',
    'la',
    'lo',
    'un',
    'una',
    'mio',
    'mia',
    'molto',
    'la stessa',
    'stessa',
    'nuova',
    'sbagliata',
    'giusta',
    'segreta',
    'sicura',
    'su',
    'in',
    'di',
    'che',
    'non',
    'sì',
  ],
}
