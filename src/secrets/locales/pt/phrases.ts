// Portuguese phrases that name a secret: "a senha do wifi é …", "o meu PIN é …", "o meu NIF é …".
import type { LocalePhrases } from '../../parsers/phrases.js'

export const PT_PHRASES: LocalePhrases = {
  locale: 'pt',
  nouns: [
    {
      kind: 'wifi-password',
      pattern: '(?:senha|palavra[- ]passe|password)\\s+(?:do|da|de)\\s+(?:wi-?fi|rede|router)',
    },
    { kind: 'one-time-code', pattern: 'código de (?:verificação|confirmação|acesso|segurança|uso único)' },
    { kind: 'pin', pattern: '(?:código\\s+)?pin(?:\\s+do\\s+(?:cartão|telemóvel|celular))?' },
    {
      kind: 'pin',
      pattern: 'código\\s+(?:da|do|de)\\s+(?:porta|portão|alarme|cofre|garagem|entrada|prédio|cadeado)',
    },
    { kind: 'passport', pattern: '(?:número do\\s+)?passaporte' },
    {
      kind: 'national-id',
      pattern: '(?:número (?:do|de)\\s+)?(?:nif|cpf|cartão de cidadão|contribuinte|segurança social|bi)',
    },
    { kind: 'card', pattern: 'número do cartão' },
    { kind: 'password', pattern: 'senha|palavra[- ]passe|password' },
  ],
  copulas: 'é|era|será|agora é|continua a ser',
  qualifiers: '(?:do|da|de|para)\\s+(?:meu|minha|o|a)?\\s*[\\p{L}\\p{N}-]+',
  setters: [
    {
      before:
        'muda|mudar|mudei|mudou|altera|alterar|alterei|alterou|põe|pôr|pus|define|defini|definir|troca|troquei|trocar|coloca|coloquei',
      joins: 'para|pra|a|em|como',
      after: '',
    },
  ],
  notValues: [
    'o',
    'a',
    'os',
    'as',
    'um',
    'uma',
    'meu',
    'minha',
    'muito',
    'a mesma',
    'mesma',
    'mesmo',
    'nova',
    'novo',
    'velha',
    'errada',
    'certa',
    'secreta',
    'segura',
    'longa',
    'curta',
    'de',
    'em',
    'que',
    'não',
    'sim',
    'igual',
    'outra',
    'outro',
    'difícil',
    'fácil',
  ],
}
