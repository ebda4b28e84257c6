// German phrases that name a secret: "mein Passwort ist …", "das WLAN-Passwort lautet …", "meine PIN ist …".
import type { LocalePhrases } from '../../parsers/phrases.js'

export const DE_PHRASES: LocalePhrases = {
  locale: 'de',
  nouns: [
    { kind: 'wifi-password', pattern: '(?:wlan|wi-?fi)[- ]?(?:passwort|kennwort|schlüssel|code)' },
    {
      kind: 'one-time-code',
      pattern: 'bestätigungscode|einmalcode|einmalpasswort|sicherheitscode|tan|verifizierungscode',
    },
    { kind: 'pin', pattern: '(?:karten|bank|handy)?[- ]?pin(?:[- ]?(?:nummer|code))?|geheimzahl' },
    {
      kind: 'pin',
      pattern:
        '(?:haus)?türcode|alarm(?:anlagen)?code|tresorcode|torcode|garagencode|eingangscode|schlosscode|code\\s+(?:für\\s+(?:die|den|das)|der|des|vom|zum|zur)\\s+(?:haustür|tür|alarmanlage|alarm|garage|tresor|tor|wohnung|eingang)',
    },
    { kind: 'passport', pattern: 'reisepass(?:nummer)?|passnummer' },
    {
      kind: 'national-id',
      pattern:
        'steuer-?id|steueridentifikationsnummer|steuernummer|personalausweisnummer|sozialversicherungsnummer|ausweisnummer',
    },
    { kind: 'card', pattern: 'kartennummer|kreditkartennummer' },
    { kind: 'api-key', pattern: 'api-?schlüssel' },
    { kind: 'password', pattern: 'passwort|kennwort|zugangscode' },
  ],
  copulas: 'ist|lautet|war|heißt|ist jetzt',
  qualifiers:
    '(?:für|vom|von|zum|zur|der|des)\\s+(?:die|den|das|dem|mein|meine|meinen|unser|unsere)?\\s*[\\p{L}\\p{N}-]+',
  setters: [
    { before: 'setz|setze|setzen|änder|ändere|ändern|stell|stelle|stellen', joins: 'auf|zu', after: '' },
    { before: '', joins: 'auf|zu', after: 'geändert|gesetzt|gestellt|umgestellt|aktualisiert' },
  ],
  notValues: [
    'der',
    'die',
    'das',
    'ein',
    'eine',
    'mein',
    'meine',
    'dein',
    'sehr',
    'noch',
    'nicht',
    'gleich',
    'dasselbe',
    'neu',
    'alt',
    'falsch',
    'richtig',
    'geheim',
    'sicher',
    'lang',
    'kurz',
    'auf',
    'in',
    'im',
    'am',
    'zu',
    'abgelaufen',
    'geändert',
    'gesperrt',
    'vergessen',
    'schwer',
    'einfach',
    'und',
    'oder',
  ],
}
