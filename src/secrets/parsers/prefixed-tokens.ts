// API keys and tokens by the prefixes their issuers give them (OpenAI, Anthropic, GitHub, Slack, AWS, Google, …).
import type { SecretKind, SecretParser, SecretSpan } from '../types.js'

interface TokenShape {
  kind: SecretKind
  pattern: RegExp
}

// Each pattern starts at a word edge and ends where the key's alphabet does; minimum lengths keep prose out.
const SHAPES: readonly TokenShape[] = [
  { kind: 'api-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'api-key', pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'api-key', pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'api-key', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/g },
  { kind: 'api-key', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  { kind: 'api-key', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'api-key', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'api-key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[A-Z0-9]{16}\b/g },
  { kind: 'api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'api-key', pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { kind: 'api-key', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'api-key', pattern: /\bpypi-[A-Za-z0-9_-]{40,}/g },
  { kind: 'api-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'api-key', pattern: /\bwhsec_[A-Za-z0-9+/=]{20,}/g },
  { kind: 'access-token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
]

// Every prefix above in one test: most texts hold none, and then none of the shapes needs to run.
const ANY_PREFIX =
  /sk-|[sr]k_|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|AGPA|AIDA|AROA|AIza|hf_|npm_|pypi-|SG\.|whsec_|eyJ/

export const prefixedTokenParser: SecretParser = {
  name: 'prefixed-tokens',
  find(text) {
    const spans: SecretSpan[] = []
    if (!ANY_PREFIX.test(text)) return spans
    for (const { kind, pattern } of SHAPES) {
      for (const match of text.matchAll(pattern)) {
        spans.push({ kind, start: match.index, end: match.index + match[0].length })
      }
    }
    return spans
  },
}
