import { describe, expect, it } from 'vitest'
import { splitSentences } from '../../../src/model/offline/text.js'

describe('splitSentences', () => {
  it.each([
    [
      'No, I didn’t. But having a pal brightens my days.',
      ['No, I didn’t.', 'But having a pal brightens my days.'],
    ],
    ["Others don't. We need to act.", ["Others don't.", 'We need to act.']],
    ['A quote by J.K. Rowling I like. It helps.', ['A quote by J.K. Rowling I like.', 'It helps.']],
    ['Dr. Lee moved the exam to 9 a.m. on Friday.', ['Dr. Lee moved the exam to 9 a.m. on Friday.']],
    [
      'We did a piece called "Finding Freedom." It was powerful.',
      ['We did a piece called "Finding Freedom."', 'It was powerful.'],
    ],
    ['Shopping list:\n- milk\n2. eggs', ['Shopping list:', 'milk', 'eggs']],
    ['So much happened… Check these out!', ['So much happened…', 'Check these out!']],
    // Fenced code is no prose: none of its lines become sentences, whatever the fence's length or character.
    [
      'Check for None first:\n\n```python\nif match is None:\n    return None\n```\n\nThen log it.',
      ['Check for None first:', 'Then log it.'],
    ],
    ['Run this:\n~~~~\nmake clean\n~~~\nstill code.\n~~~~\nDone.', ['Run this:', 'Done.']],
    // An unclosed fence runs to the end, as markdown renders it.
    ['Here:\n```\nrm -rf build\nnpm ci', ['Here:']],
    // Backticks inside a line are inline code, part of the sentence.
    ['Use `match[1]` only after the check.', ['Use `match[1]` only after the check.']],
  ])('%j', (text, sentences) => {
    expect(splitSentences(text)).toEqual(sentences)
  })
})
