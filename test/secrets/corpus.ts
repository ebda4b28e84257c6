// The secret corpus and its look-alikes, shared by the detector's tests and the end-to-end dream tests.
import type { SecretKind } from '../../src/secrets/types.js'

/** A message that holds one secret: `value` must never appear in memory, `kind` names it. */
export interface SecretCase {
  lang: 'en' | 'es' | 'pt' | 'de' | 'fr' | 'it' | 'any'
  kind: SecretKind
  text: string
  value: string
}

export const SECRET_CASES: readonly SecretCase[] = [
  // English
  { lang: 'en', kind: 'wifi-password', text: 'The wifi password is Tr0ub4dor&3 btw', value: 'Tr0ub4dor&3' },
  { lang: 'en', kind: 'pin', text: "my bank PIN is 4821, don't tell anyone lol", value: '4821' },
  {
    lang: 'en',
    kind: 'password',
    text: 'My Netflix password is "blue giraffe 42"',
    value: 'blue giraffe 42',
  },
  { lang: 'en', kind: 'password', text: 'password: Hunter2Rules!', value: 'Hunter2Rules' },
  { lang: 'en', kind: 'one-time-code', text: 'your verification code is 492013', value: '492013' },
  { lang: 'en', kind: 'one-time-code', text: 'The 2FA code was 771203, typed it in', value: '771203' },
  { lang: 'en', kind: 'security-code', text: 'CVV 739 on the back', value: '739' },
  { lang: 'en', kind: 'passport', text: 'passport number: X48213377', value: 'X48213377' },
  { lang: 'en', kind: 'national-id', text: 'SSN 219-09-9999 for the form', value: '219-09-9999' },
  { lang: 'en', kind: 'national-id', text: 'my NI number is QQ123456C', value: 'QQ123456C' },
  { lang: 'en', kind: 'pin', text: 'the alarm code is 90417', value: '90417' },
  {
    lang: 'en',
    kind: 'wifi-password',
    text: "the cabin's wifi key for the guest network is CedarLake#88",
    value: 'CedarLake#88',
  },
  {
    lang: 'en',
    kind: 'password',
    text: 'the router admin passcode is now Zebra-Quartz-51',
    value: 'Zebra-Quartz-51',
  },
  {
    lang: 'en',
    kind: 'access-token',
    text: 'bearer token: k9Lm2Pq8Rs4Tv6Wx1Yz3',
    value: 'k9Lm2Pq8Rs4Tv6Wx1Yz3',
  },
  // Spanish
  { lang: 'es', kind: 'password', text: 'mi contraseña es Gato#2024', value: 'Gato#2024' },
  { lang: 'es', kind: 'wifi-password', text: 'la clave del wifi es Playa_Sol_19', value: 'Playa_Sol_19' },
  { lang: 'es', kind: 'pin', text: 'El PIN de la tarjeta es 6604', value: '6604' },
  { lang: 'es', kind: 'one-time-code', text: 'el código de verificación es 318842', value: '318842' },
  { lang: 'es', kind: 'passport', text: 'mi número de pasaporte es PAB123456', value: 'PAB123456' },
  { lang: 'es', kind: 'national-id', text: 'Mi DNI es 12345678Z', value: '12345678Z' },
  { lang: 'es', kind: 'national-id', text: 'el NIE X1234567L está en la carpeta', value: 'X1234567L' },
  // Portuguese
  { lang: 'pt', kind: 'pin', text: 'o meu PIN é 9384', value: '9384' },
  { lang: 'pt', kind: 'wifi-password', text: 'a senha do wifi é Lisboa!2025', value: 'Lisboa!2025' },
  { lang: 'pt', kind: 'password', text: 'A minha palavra-passe é Sardinha77', value: 'Sardinha77' },
  { lang: 'pt', kind: 'national-id', text: 'o meu NIF é 123456789', value: '123456789' },
  { lang: 'pt', kind: 'passport', text: 'número do passaporte: CB4471029', value: 'CB4471029' },
  { lang: 'pt', kind: 'one-time-code', text: 'o código de confirmação é 550912', value: '550912' },
  // German
  { lang: 'de', kind: 'password', text: 'mein Passwort ist Sonnenblume77!', value: 'Sonnenblume77' },
  {
    lang: 'de',
    kind: 'wifi-password',
    text: 'das WLAN-Passwort lautet Hund-Katze-99',
    value: 'Hund-Katze-99',
  },
  { lang: 'de', kind: 'pin', text: 'Meine PIN ist 2718', value: '2718' },
  { lang: 'de', kind: 'one-time-code', text: 'der Bestätigungscode lautet 660341', value: '660341' },
  { lang: 'de', kind: 'passport', text: 'Reisepassnummer: C01X00T47', value: 'C01X00T47' },
  { lang: 'de', kind: 'national-id', text: 'Steuer-ID: 86095742719', value: '86095742719' },
  {
    lang: 'de',
    kind: 'national-id',
    text: 'meine Steuer-ID ist 47036892816 falls du sie brauchst',
    value: '47036892816',
  },
  // French
  { lang: 'fr', kind: 'password', text: 'mon mot de passe est Chat-Noir-88', value: 'Chat-Noir-88' },
  { lang: 'fr', kind: 'wifi-password', text: "le code wifi c'est Baguette2024", value: 'Baguette2024' },
  { lang: 'fr', kind: 'pin', text: 'mon code PIN est 1357', value: '1357' },
  { lang: 'fr', kind: 'one-time-code', text: 'le code de vérification est 884422', value: '884422' },
  { lang: 'fr', kind: 'passport', text: 'numéro de passeport : 18AB12345', value: '18AB12345' },
  { lang: 'fr', kind: 'security-code', text: 'le cryptogramme est 512', value: '512' },
  // Italian
  { lang: 'it', kind: 'password', text: 'la mia password è Pizza4Stagioni', value: 'Pizza4Stagioni' },
  { lang: 'it', kind: 'wifi-password', text: 'la password del wifi è Casa1234', value: 'Casa1234' },
  // Any language: shapes with no phrase
  {
    lang: 'any',
    kind: 'api-key',
    text: 'use sk-ant-api03-Xy7Qm2Lp9Rt4Vw8Bc1Nd6Fg3Hj5Kl0Mz',
    value: 'sk-ant-api03-Xy7Qm2Lp9Rt4Vw8Bc1Nd6Fg3Hj5Kl0Mz',
  },
  {
    lang: 'any',
    kind: 'api-key',
    text: 'OPENAI=sk-proj-Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr',
    value: 'sk-proj-Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr',
  },
  {
    lang: 'any',
    kind: 'api-key',
    text: 'token ghp_R2d2C3poBb8Yoda7Luke5Leia3Han1Solo9',
    value: 'ghp_R2d2C3poBb8Yoda7Luke5Leia3Han1Solo9',
  },
  {
    lang: 'any',
    kind: 'api-key',
    text: 'github_pat_11ABCDEFG0123456789_abcdefghijKLMNOP',
    value: 'github_pat_11ABCDEFG0123456789_abcdefghijKLMNOP',
  },
  {
    lang: 'any',
    kind: 'api-key',
    text: 'slack bot: xoxb-2048-4096-QwErTyUiOp',
    value: 'xoxb-2048-4096-QwErTyUiOp',
  },
  { lang: 'any', kind: 'api-key', text: 'aws key AKIAZ7EXAMPLEQ4RT2MN', value: 'AKIAZ7EXAMPLEQ4RT2MN' },
  {
    lang: 'any',
    kind: 'api-key',
    text: 'maps: AIzaSyB7x9Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lx',
    value: 'AIzaSyB7x9Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lx',
  },
  {
    lang: 'any',
    kind: 'access-token',
    text: 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqb2UifQ.c2lnbmF0dXJlUXVpdGVMb25n',
    value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqb2UifQ.c2lnbmF0dXJlUXVpdGVMb25n',
  },
  {
    lang: 'any',
    kind: 'secret-token',
    text: 'here: Zq8vN3kLp0Xr7Tb2Wm5Yc9Hd4Jf6Gs1A',
    value: 'Zq8vN3kLp0Xr7Tb2Wm5Yc9Hd4Jf6Gs1A',
  },
  { lang: 'any', kind: 'password', text: '```\nDB_PASSWORD=Pg_S3cret_Luna\n```', value: 'Pg_S3cret_Luna' },
  {
    lang: 'any',
    kind: 'api-key',
    text: '```json\n{"api_key": "live_9f8e7d6c5b4a3f2e1d0c"}\n```',
    value: 'live_9f8e7d6c5b4a3f2e1d0c',
  },
  {
    lang: 'any',
    kind: 'private-key',
    text: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----',
    value: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ',
  },
  { lang: 'any', kind: 'card', text: 'card 4111 1111 1111 1111 exp 12/28', value: '4111 1111 1111 1111' },
  { lang: 'any', kind: 'card', text: 'Amex 378282246310005 for the hotel', value: '378282246310005' },
  { lang: 'any', kind: 'card', text: 'mastercard 5555-5555-5555-4444', value: '5555-5555-5555-4444' },
  {
    lang: 'any',
    kind: 'iban',
    text: 'IBAN DE89 3704 0044 0532 0130 00 please',
    value: 'DE89 3704 0044 0532 0130 00',
  },
  { lang: 'any', kind: 'iban', text: 'pay to GB29NWBK60161331926819', value: 'GB29NWBK60161331926819' },
  {
    lang: 'any',
    kind: 'iban',
    text: 'o IBAN é PT50000201231234567890154',
    value: 'PT50000201231234567890154',
  },
  {
    lang: 'any',
    kind: 'iban',
    text: 'mi IBAN: ES91 2100 0418 4502 0005 1332',
    value: 'ES91 2100 0418 4502 0005 1332',
  },
  {
    lang: 'any',
    kind: 'iban',
    text: 'FR14 2004 1010 0505 0001 3M02 606 pour le loyer',
    value: 'FR14 2004 1010 0505 0001 3M02 606',
  },
]

/** Text with nothing secret in it: each `keep` must survive withholding untouched. */
export interface LookAlike {
  text: string
  keep: string
}

export const LOOK_ALIKES: readonly LookAlike[] = [
  { text: 'my order number is 112-4567890-1234567', keep: '112-4567890-1234567' },
  { text: 'call me at +44 7700 900123 after six', keep: '+44 7700 900123' },
  { text: "Ana's number is 912 345 678, save it", keep: '912 345 678' },
  { text: 'flight BA2490 leaves at 07:45', keep: 'BA2490' },
  { text: 'we upgraded to version 2.14.3 today', keep: '2.14.3' },
  { text: 'tracking number 1Z999AA10123456784', keep: '1Z999AA10123456784' },
  { text: 'the sofa was €1,299.00 in the end', keep: '€1,299.00' },
  { text: 'new postcode is SW1A 1AA', keep: 'SW1A 1AA' },
  { text: 'reference 4111111111111112 on the invoice', keep: '4111111111111112' },
  { text: 'the dentist is on 2026-12-11 at 15:30', keep: '2026-12-11' },
  {
    text: 'succeeded · run-20261207T171517640Z-d089f0 — read 7 day(s)',
    keep: 'run-20261207T171517640Z-d089f0',
  },
  { text: 'backup 20261207T171517Z-manual-cli before the dream', keep: '20261207T171517Z-manual-cli' },
  { text: 'the password is on the fridge', keep: 'the password is on the fridge' },
  { text: 'I changed my password yesterday', keep: 'I changed my password yesterday' },
  {
    text: 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it',
    keep: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  },
  { text: 'set max_tokens: 4096 in the config', keep: '4096' },
  { text: 'my booking code is on the email', keep: 'my booking code is on the email' },
  { text: 'room 1204, floor 12', keep: '1204' },
  { text: 'the Wi-Fi network is called CedarLakeGuest', keep: 'CedarLakeGuest' },
  { text: 'promo code SPRING25 gives 25% off', keep: 'SPRING25' },
  {
    text: 'uuid 123e4567-e89b-12d3-a456-426614174000 in the logs',
    keep: '123e4567-e89b-12d3-a456-426614174000',
  },
  { text: 'mi contraseña es muy larga', keep: 'mi contraseña es muy larga' },
  { text: 'mein Passwort ist abgelaufen', keep: 'mein Passwort ist abgelaufen' },
  { text: 'o meu voo é o TP1234 às 10h', keep: 'TP1234' },
  { text: 'Kundennummer 4471 0293 11', keep: '4471 0293 11' },
  { text: 'The meeting ID is 845 2231 9087', keep: '845 2231 9087' },
  { text: 'bus route 42 goes to gate B12', keep: 'gate B12' },
]
