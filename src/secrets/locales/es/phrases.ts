// Spanish phrases that name a secret: "mi contraseña es …", "la clave del wifi es …", "mi PIN es …".
import type { LocalePhrases } from '../../parsers/phrases.js'

export const ES_PHRASES: LocalePhrases = {
  locale: 'es',
  nouns: [
    {
      kind: 'wifi-password',
      pattern: '(?:contraseña|clave|password)\\s+(?:del?|de la)\\s+(?:wi-?fi|red|router)|clave wi-?fi',
    },
    {
      kind: 'one-time-code',
      pattern: 'código de (?:verificación|un solo uso|acceso|confirmación|seguridad)',
    },
    { kind: 'pin', pattern: '(?:código\\s+)?pin(?:\\s+de\\s+la\\s+tarjeta)?' },
    {
      kind: 'pin',
      pattern:
        '(?:código|clave)\\s+(?:de\\s+la|del|de)\\s+(?:puerta|portal|portón|alarma|caja fuerte|garaje|entrada|edificio|candado)',
    },
    { kind: 'passport', pattern: '(?:número de(?:l)?\\s+)?pasaporte' },
    {
      kind: 'national-id',
      pattern: '(?:número de(?:l)?\\s+)?(?:dni|nie|documento de identidad|seguridad social)',
    },
    { kind: 'card', pattern: 'número de (?:la )?tarjeta' },
    { kind: 'api-key', pattern: 'clave de (?:la )?api|clave api' },
    { kind: 'password', pattern: 'contraseña|clave|password' },
  ],
  copulas: 'es|era|será|sigue siendo|ahora es|es ahora',
  qualifiers: '(?:de|del|de la|para)\\s+(?:mi|tu|su|el|la|los|las)?\\s*[\\p{L}\\p{N}-]+',
  setters: [
    {
      before:
        'pon|pongo|puse|pusiste|puso|poner|cambia|cambio|cambié|cambió|cambiaste|cambiar|configura|configuré|configurar|actualiza|actualicé|actualizar|establece|establecí',
      joins: 'a|en|por|como',
      after: '',
    },
  ],
  notValues: [
    'el',
    'la',
    'los',
    'las',
    'un',
    'una',
    'mi',
    'tu',
    'su',
    'muy',
    'la misma',
    'misma',
    'mismo',
    'nueva',
    'nuevo',
    'vieja',
    'incorrecta',
    'correcta',
    'secreta',
    'segura',
    'larga',
    'corta',
    'de',
    'en',
    'que',
    'no',
    'sí',
    'si',
    'esta',
    'está',
    'igual',
    'otra',
    'otro',
    'difícil',
    'fácil',
  ],
}
