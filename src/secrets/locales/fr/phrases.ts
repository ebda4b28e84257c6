// French phrases that name a secret: "mon mot de passe est …", "le code wifi c'est …", "mon code PIN est …".
import type { LocalePhrases } from '../../parsers/phrases.js'

export const FR_PHRASES: LocalePhrases = {
  locale: 'fr',
  nouns: [
    {
      kind: 'wifi-password',
      pattern:
        "(?:mot de passe|code|clé|cle)\\s+(?:du|de la|de l'|d[ue]\\s)?\\s*(?:wi-?fi|box|réseau)|clé wi-?fi",
    },
    {
      kind: 'one-time-code',
      pattern:
        "code de (?:vérification|confirmation|validation|sécurité)|code à usage unique|code d['’]accès",
    },
    { kind: 'security-code', pattern: 'cryptogramme(?: visuel)?' },
    {
      kind: 'pin',
      pattern:
        '(?:code\\s+)?pin(?:\\s+de\\s+(?:la\\s+)?carte)?|code (?:secret|confidentiel)(?: de (?:ma|la) carte)?',
    },
    {
      kind: 'pin',
      pattern:
        "digicode|code\\s+(?:de\\s+la\\s+|du\\s+|de\\s+l['’]\\s*|d['’]\\s*)?(?:porte|portail|alarme|entrée|immeuble|garage|coffre|cadenas|interphone)",
    },
    { kind: 'passport', pattern: '(?:numéro de\\s+)?passeport' },
    {
      kind: 'national-id',
      pattern: "(?:numéro de\\s+)?(?:sécurité sociale|sécu|carte d'identité|nir|numéro fiscal)",
    },
    { kind: 'card', pattern: 'numéro de (?:la |ma )?carte(?: bancaire| de crédit)?' },
    { kind: 'api-key', pattern: "clé (?:d'|de l')?api|clé api" },
    { kind: 'password', pattern: 'mot de passe|mdp' },
  ],
  copulas: "est|était|sera|c'est|c’est|est maintenant",
  qualifiers: "(?:de|du|de la|pour)\\s+(?:mon|ma|le|la|l')?\\s*[\\p{L}\\p{N}-]+",
  setters: [
    {
      before:
        'mets|mettre|mis|change|changer|changé|modifie|modifier|modifié|définis|définir|défini|règle|régler|réglé',
      joins: 'à|en|pour|par|sur',
      after: '',
    },
  ],
  notValues: [
    'le',
    'la',
    'les',
    'un',
    'une',
    'mon',
    'ma',
    'mes',
    'très',
    'toujours',
    'pas',
    'le même',
    'même',
    'nouveau',
    'nouvelle',
    'ancien',
    'faux',
    'bon',
    'secret',
    'sûr',
    'long',
    'court',
    'sur',
    'dans',
    'de',
    'que',
    'oui',
    'non',
    'expiré',
    'changé',
    'bloqué',
    'oublié',
    'et',
    'ou',
  ],
}
