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
    // A day of the month written with a dot, as German does, runs on into its month; a count before a name ends.
    [
      'Die Präsentation ist am 3. Dezember. Ich bin nervös.',
      ['Die Präsentation ist am 3. Dezember.', 'Ich bin nervös.'],
    ],
    ['We scored 2. Mark played well.', ['We scored 2.', 'Mark played well.']],
    // An emoji stands for the stop; before a word in lower case it is part of the sentence.
    ['Inspiring 💪 I emailed some wholesalers', ['Inspiring 💪', 'I emailed some wholesalers']],
    ['Got pizza 🍕 with Ana', ['Got pizza 🍕 with Ana']],
    // Fenced code is no prose: none of its lines become sentences, whatever the fence's length or character.
    [
      'Check for None first:\n\n```python\nif match is None:\n    return None\n```\n\nThen log it.',
      ['Check for None first:', 'Then log it.'],
    ],
    ['Run this:\n~~~~\nmake clean\n~~~\nstill code.\n~~~~\nDone.', ['Run this:', 'Done.']],
    // An unclosed fence runs to the end, as markdown renders it.
    ['Here:\n```\nrm -rf build\nnpm ci', ['Here:']],
    // A pasted block of data (a log, a CSV, a table, a stack trace) is not something said either.
    [
      "prod is down, here's the log:\n2026-11-24 10:00:01 ERROR a\n2026-11-24 10:00:02 ERROR b\n[10:00:03] WARN c\nFixed now.",
      ["prod is down, here's the log:", 'Fixed now.'],
    ],
    ['dedupe this:\nname,email,phone\nann,ann@x.example,1\nbo,bo@x.example,2', ['dedupe this:']],
    ['| day | km |\n|---|---|\n| Mon | 5 |\nMonday was my best run.', ['Monday was my best run.']],
    [
      'It crashed:\nTypeError: x is undefined\n    at parse (src/p.js:3:9)\n    at main (src/m.js:8:1)\n    at run (node:internal:1:1)',
      ['It crashed:', 'TypeError: x is undefined'],
    ],
    // Two such lines may be what the user says; only a block of three or more is taken for a paste.
    ['Times:\n10:00:00 start\n10:30:00 end', ['Times:', '10:00:00 start', '10:30:00 end']],
    ['Shopping: eggs, milk, bread, tea', ['Shopping: eggs, milk, bread, tea']],
    // Backticks inside a line are inline code, part of the sentence.
    ['Use `match[1]` only after the check.', ['Use `match[1]` only after the check.']],
  ])('%j', (text, sentences) => {
    expect(splitSentences(text)).toEqual(sentences)
  })
})
