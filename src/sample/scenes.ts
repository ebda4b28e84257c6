// The story: Maya's scripted conversations, each planted fact inside one, with dates relative to today.
import { addDays, longDateTitle, type LocalDay } from '../time/local-day.js'
import type { FactSpec, Line, Scene } from './types.js'

/** Future dates the story mentions, written the way people write them ("December 4"). */
export interface StoryDates {
  launch: string
  talk: string
  tripOut: string
  tripBack: string
}

/** `November 23` for `2026-11-23`. */
function monthDay(day: LocalDay): string {
  return longDateTitle(day).split(', ')[1] ?? day
}

export function storyDates(today: LocalDay): StoryDates {
  return {
    talk: monthDay(addDays(today, 10)),
    launch: monthDay(addDays(today, 24)),
    tripOut: monthDay(addDays(today, 33)),
    tripBack: monthDay(addDays(today, 40)),
  }
}

const user = (text: string, fact?: FactSpec): Line =>
  fact ? { role: 'user', text, fact } : { role: 'user', text }
const bot = (text: string): Line => ({ role: 'assistant', text })

/** Scenes from the oldest (19 days ago) to yesterday; planted facts cluster in the last 7 days. */
export function buildScenes(dates: StoryDates): Scene[] {
  return [
    {
      chat: 'main',
      daysAgo: 19,
      hour: 20.5,
      lines: [
        user('hey — trying this out properly. do you actually remember things between chats?'),
        bot(
          "I do: I keep notes between conversations and tidy them up overnight. Tell me what's worth remembering.",
        ),
        user(
          "ok then, quick intro so you stop calling me 'you' 😅 I'm Maya Ortega, staff engineer at Tidewell (logistics software), I run the platform team. Living in Lisbon, Alfama, up far too many stairs.",
          {
            id: 'identity-maya',
            kind: 'identity',
            expectedFile: 'user.md',
            mustContain: ['Maya', 'Tidewell', 'engineer'],
          },
        ),
        bot(
          'Nice to meet you, Maya. Noted: staff engineer at Tidewell leading the platform team, based in Lisbon.',
        ),
      ],
    },
    {
      chat: 'main',
      daysAgo: 18,
      hour: 12.25,
      lines: [
        user("what's the gist of the Raft paper, I have 2 minutes before a meeting"),
        bot(
          "I'm sorry in advance if this is too much! Raft is a consensus algorithm designed to be understandable. It elects a leader through randomized timeouts; the leader accepts client commands, appends them to its log and replicates them to followers; an entry is committed once a majority stores it, and only up-to-date nodes can win elections, which keeps committed entries safe. Membership changes use joint consensus. I apologise for the length — let me know if you'd like more detail on any part!",
        ),
        user('that was not 2 minutes'),
        bot(
          "I'm so sorry about that, I apologise! Short version: one leader, a majority-replicated log, random timeouts for elections.",
        ),
      ],
    },
    {
      chat: 'atlas',
      daysAgo: 17,
      hour: 10.5,
      lines: [
        user(
          "new chat for Atlas — the shipment-tracking API we're rewriting this quarter. work stuff goes here",
        ),
        bot("Got it, I'll keep Atlas notes in this thread. Where does it stand?"),
        user('design doc is half done, arch review is next week. main open question is the datastore'),
        bot('Worth settling early, it shapes the event model. Want a comparison table for the review?'),
      ],
    },
    {
      chat: 'main',
      daysAgo: 15,
      hour: 18.5,
      lines: [
        user('Rui booked an 8:30 sync with me again 🙄'),
        bot('Want me to draft a reply proposing a later slot?'),
        user(
          'yes please. and remember this one: no meetings before 10 for me, ever. mornings are deep work, I decline anything earlier',
          {
            id: 'pref-no-early-meetings',
            kind: 'preference',
            expectedFile: 'user.md',
            mustContain: ['before 10'],
          },
        ),
        bot(
          "Noted — nothing before 10:00. Draft: 'Hi Rui, mornings are my focus block; could we do 10:30 instead?'",
        ),
      ],
    },
    {
      chat: 'main',
      daysAgo: 14,
      hour: 17,
      lines: [
        user("Biscuit's vet check went fine, just a sore paw from chasing pigeons"),
        bot('Good news. Greyhounds versus pigeons, a classic.'),
        user('they asked for her microchip number AGAIN. putting it here so you have it: 620098100734215', {
          id: 'ref-biscuit-microchip',
          kind: 'reference',
          expectedFile: 'reference.md',
          mustContain: ['620098100734215'],
        }),
        bot("Saved: Biscuit's microchip number is 620098100734215."),
      ],
    },
    {
      chat: 'trip',
      daysAgo: 13,
      hour: 21,
      lines: [
        user('Jonas and I want a week in Madeira after Atlas ships. where should we base ourselves?'),
        bot(
          'Funchal if you want restaurants and buses; Santana or Seixal for quiet and trails. Many people split the week.',
        ),
        user('trails matter more than restaurants tbh'),
        bot('Then Santana: close to Pico Ruivo and the northern levadas.'),
      ],
    },
    {
      chat: 'main',
      daysAgo: 12,
      hour: 19.75,
      lines: [
        user(
          "Jonas says hi btw. he's my partner, in case I mention him and you wonder — he's the one who named the dog",
          {
            id: 'rel-partner-jonas',
            kind: 'relation',
            expectedFile: 'user.md',
            mustContain: ['Jonas', 'partner'],
          },
        ),
        bot("Hi Jonas! Noted: Jonas is your partner, and Biscuit's name is his doing."),
        user('he wanted to call her Pastel. we compromised'),
        bot('Biscuit is a fine compromise.'),
      ],
    },
    {
      chat: 'talk',
      daysAgo: 11,
      hour: 13.5,
      lines: [
        user("starting a chat for my meetup talk. event sourcing for people who've never touched it"),
        bot('Fun topic. Do you have a date and a length?'),
        user(
          `the Women in Tech meetup confirmed my talk for ${dates.talk}: a 25 minute slot plus questions`,
          {
            id: 'plan-meetup-talk',
            kind: 'plan',
            expectedFile: 'project.md',
            mustContain: ['talk', dates.talk],
          },
        ),
        bot(`Noted: your talk is on ${dates.talk}, 25 minutes plus Q&A. Want an outline first?`),
      ],
    },
    {
      chat: 'atlas',
      daysAgo: 10,
      hour: 16,
      lines: [
        user('arch review done'),
        bot('How did it go?'),
        user(
          "we're going with Postgres for Atlas, Mongo is out. the shipment events are relational anyway and the whole team already knows Postgres",
          {
            id: 'decision-atlas-postgres',
            kind: 'decision',
            expectedFile: 'project.md',
            mustContain: ['Atlas', 'Postgres'],
          },
        ),
        bot('Logged: the Atlas datastore is Postgres (Mongo rejected): relational events, team familiarity.'),
      ],
    },
    {
      chat: 'tripFork1',
      daysAgo: 9,
      hour: 22,
      lines: [
        user('regenerate the Madeira plan but with less driving, Jonas hates mountain roads'),
        bot(
          'Less driving: stay in Funchal all week, use buses, and book two guided hikes with pickup (Pico do Arieiro, Levada do Rei).',
        ),
        user('hm, that loses the north coast'),
        bot('One fix: a single day tour to Santana and Seixal.'),
      ],
    },
    {
      chat: 'main',
      daysAgo: 6,
      hour: 12.5,
      lines: [
        user('trade-offs of UUIDv7 vs bigint ids for a new table?'),
        bot(
          'Great question! There are several things to weigh here. UUIDv7 values are time-ordered, so unlike random UUIDv4 they keep B-tree inserts mostly sequential and index well; they can be generated anywhere without coordination, which helps with offline clients and merges, and they do not leak row counts. On the other hand they take 16 bytes instead of 8, which grows every index and foreign key, and they are harder to read in logs. A bigint sequence is compact and fast but needs a central allocator and exposes ordering. In short, it depends on your needs!',
        ),
        user('can you keep answers short from now on? bullets are fine — I mostly read you on my phone', {
          id: 'feedback-short-answers',
          kind: 'feedback',
          expectedFile: 'feedback.md',
          mustContain: ['short', 'bullet'],
        }),
        bot(
          'Will do.\n- UUIDv7: unique anywhere, time-ordered, 16 bytes\n- bigint: 8 bytes, compact, needs one sequence',
        ),
      ],
    },
    {
      chat: 'main',
      daysAgo: 5,
      hour: 20,
      lines: [
        user(
          'update for your notes: we moved from Lisbon to Porto last weekend! Jonas took the job at Casa da Música, so that’s us now. boxes everywhere 📦',
          {
            id: 'correction-moved-to-porto',
            kind: 'correction',
            expectedFile: 'user.md',
            mustContain: ['Porto'],
            supersedes: { mustContain: ['Lisbon'] },
          },
        ),
        bot('Congratulations! Updated: you live in Porto now, not Lisbon.'),
        user('Biscuit is already obsessed with the seagulls here'),
        bot('The pigeons were practice.'),
      ],
    },
    {
      chat: 'kitchen',
      daysAgo: 5,
      hour: 18.75,
      lines: [
        user(
          'first dinner in the new kitchen. for future suggestions: I stopped eating meat back in September, fish is still fine',
          { id: 'pref-no-meat', kind: 'preference', expectedFile: 'user.md', mustContain: ['meat', 'fish'] },
        ),
        bot('Noted: no meat, fish is fine. Tonight: garlic prawns with rice, 20 minutes.'),
      ],
    },
    {
      chat: 'main',
      daysAgo: 4,
      hour: 11,
      lines: [
        user('new address for all the forms: Rua de Cedofeita 212, 3º Esq., 4050-174 Porto', {
          id: 'ref-home-address',
          kind: 'reference',
          expectedFile: 'reference.md',
          mustContain: ['Cedofeita 212'],
        }),
        bot('Saved as your address: Rua de Cedofeita 212, 3º Esq., 4050-174 Porto.'),
      ],
    },
    {
      chat: 'main',
      daysAgo: 4,
      hour: 21,
      lines: [
        user(
          'my sister Inês is coming up from Coimbra on Saturday, staying two nights. first guest in the new place!',
          {
            id: 'rel-sister-ines',
            kind: 'relation',
            expectedFile: 'user.md',
            mustContain: ['Inês', 'sister'],
          },
        ),
        bot('Lovely. Want ideas for a Saturday with her?'),
        user('yes but nothing with queues'),
        bot('- Serralves gardens, early\n- lunch in Matosinhos, grilled fish\n- sunset at Jardim do Morro'),
      ],
    },
    {
      chat: 'main',
      daysAgo: 3,
      hour: 8.75,
      lines: [
        user(
          "found a café near the flat that does a proper oat flat white. that's my order everywhere btw, no sugar",
          {
            id: 'pref-oat-flat-white',
            kind: 'preference',
            expectedFile: 'user.md',
            mustContain: ['oat flat white'],
          },
        ),
        bot('Noted: oat flat white, no sugar.'),
      ],
    },
    {
      chat: 'atlas',
      daysAgo: 3,
      hour: 14,
      lines: [
        user(
          `it's official, Atlas launch is ${dates.launch}. marketing announces the same morning, we freeze the API a week before`,
          {
            id: 'plan-atlas-launch',
            kind: 'plan',
            expectedFile: 'project.md',
            mustContain: ['Atlas', dates.launch],
          },
        ),
        bot(`Logged: Atlas launches ${dates.launch}; API freeze one week earlier.`),
      ],
    },
    {
      chat: 'main',
      daysAgo: 3,
      hour: 17.5,
      lines: [
        user('the calendar invite you drafted had the wrong time zone'),
        bot(
          "I'm so sorry, I apologise for that mistake — that's entirely my fault, and I'm sorry for any confusion it caused. Fixed: 15:00 your time.",
        ),
        user("you really don't need to apologise every time. just fix it and move on, it's fine", {
          id: 'feedback-no-apologies',
          kind: 'feedback',
          expectedFile: 'feedback.md',
          mustContain: ['apolog'],
        }),
        bot('Understood. Invite fixed: 15:00 your time.'),
      ],
    },
    {
      chat: 'atlas',
      daysAgo: 2,
      hour: 11.5,
      lines: [
        user('launch sync notes, can you clean them up: rollout, flags, comms'),
        bot('Send them over.'),
        user(
          'decided in the sync: Atlas ships behind a feature flag — 10% of customers the first week, then everyone if the error rate holds',
          {
            id: 'decision-atlas-rollout',
            kind: 'decision',
            expectedFile: 'project.md',
            mustContain: ['feature flag', '10%'],
          },
        ),
        bot(
          '- Rollout: behind a feature flag, 10% of customers in week one\n- Everyone after that, if the error rate holds',
        ),
      ],
    },
    {
      chat: 'atlas',
      daysAgo: 2,
      hour: 16.25,
      lines: [
        user(
          'the migration report prints `<!-- migrated: 14 tables -->` and then `-- done --> restart workers`. will that break the HTML status page?',
        ),
        bot(
          'Likely: `-->` closes the comment early, and `--` inside a comment is invalid. Escape the dashes before embedding.',
        ),
      ],
    },
    {
      chat: 'main',
      daysAgo: 1,
      hour: 13,
      lines: [
        user('Biscuit stole a whole pastel de nata off the counter 🐕🥧 — é um crime'),
        bot('A seasoned thief. Pastries go on the top shelf now.'),
      ],
    },
    {
      chat: 'tripFork2',
      daysAgo: 1,
      hour: 21.5,
      lines: [
        user('one more go at Madeira: mix of both plans, 3 nights Santana, 4 nights Funchal'),
        bot(
          '- Santana: Pico Ruivo, Levada do Caldeirão Verde\n- Funchal: old town, Monte, a boat trip\n- Car only on the transfer days',
        ),
        user(`perfect. booked it! we fly to Funchal on ${dates.tripOut} and back on ${dates.tripBack}`, {
          id: 'plan-madeira-trip',
          kind: 'plan',
          expectedFile: 'current-state.md',
          mustContain: ['Funchal', dates.tripOut],
        }),
        bot(`Saved: Madeira trip ${dates.tripOut}–${dates.tripBack}, 3 nights in Santana then 4 in Funchal.`),
      ],
    },
  ]
}
