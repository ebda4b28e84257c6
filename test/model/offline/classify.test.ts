import { describe, expect, it } from 'vitest'
import { classifyLine, classifySentence, type SentenceInput } from '../../../src/model/offline/classify.js'
import type { Fact } from '../../../src/model/offline/types.js'

// A Thursday evening in Lisbon: "Saturday" is 2026-11-21; "next Friday" is tomorrow or 2026-11-27.
const SOURCE: Omit<SentenceInput, 'text'> = {
  ts: '2026-11-19T20:00:00.000Z',
  day: '2026-11-19',
  messageId: 'm1',
  chat: 'web:main',
  timeZone: 'Europe/Lisbon',
}

const classify = (text: string, context = ''): Fact[] => classifySentence({ ...SOURCE, text, context })
const summary = (facts: Fact[]): string[] =>
  facts.map((fact) => `${fact.file} ${fact.key} ${fact.headline ?? ''}`.trim())

describe('classifySentence: durable statements in many phrasings', () => {
  it.each([
    ['My name is Priya Raman.', 'user.md user.name Name: Priya Raman'],
    ['Call me Jo.', 'user.md user.name Name: Jo'],
    ["hi! I'm Maya Ortega, staff engineer at Tidewell", 'user.md user.name Name: Maya Ortega'],
    ["hi! I'm Maya Ortega, staff engineer at Tidewell", 'user.md user.job Job: staff engineer'],
    ["hi! I'm Maya Ortega, staff engineer at Tidewell", 'user.md user.employer Works at: Tidewell'],
    ["I'm a nurse at St Mary's Hospital.", "user.md user.employer Works at: St Mary's Hospital"],
    ['I just joined Stripe as a product manager.', 'user.md user.job Job: product manager'],
    ['I live in Braga now.', 'user.md user.city City: Braga'],
    ['We relocated to San Francisco in March.', 'user.md user.city City: San Francisco'],
    ["I'm based in Berlin these days.", 'user.md user.city City: Berlin'],
    ['Living in Lisbon, Alfama, up far too many stairs.', 'user.md user.city City: Lisbon'],
    ["I'm originally from Cork.", 'user.md user.origin From: Cork'],
    ["My wife's name is Ana.", 'user.md user.relation.wife Wife: Ana'],
    ['Tomas is my brother.', 'user.md user.relation.brother.tomas Brother: Tomas'],
    ['Our dog is called Biscuit.', 'user.md user.relation.dog.biscuit Dog: Biscuit'],
    ['We went hiking, my brother Tom and I.', 'user.md user.relation.brother.tom Brother: Tom'],
    ["I'm married to Sam.", 'user.md user.relation.spouse Spouse: Sam'],
    [
      'my sister Inês is coming up from Coimbra on Saturday',
      'user.md user.relation.sister.ines Sister: Inês',
    ],
    ["I'm vegan now.", 'user.md user.diet Diet: vegan'],
    ["I've been vegetarian for 10 years.", 'user.md user.diet Diet: vegetarian'],
    ['I went vegan last year.', 'user.md user.diet Diet: vegan'],
    ["I'm allergic to peanuts.", 'user.md user.allergy.peanuts Allergy: peanuts'],
    [
      "I'm severely allergic to shellfish, so no shrimp.",
      'user.md user.allergy.shellfish Allergy: shellfish',
    ],
    ["I've got a severe cat allergy.", 'user.md user.allergy.cat Allergy: cat'],
    ['I started a new job as a software engineer at Stripe.', 'user.md user.job Job: software engineer'],
    ['I started a new job as a software engineer at Stripe.', 'user.md user.employer Works at: Stripe'],
    ["I've been working as a freelance designer.", 'user.md user.job Job: freelance designer'],
    [
      'Lost my job as a banker yesterday, so I am starting a business.',
      'user.md user.job Job: none (lost the job as banker)',
    ],
    ['I got laid off from Globex last week.', 'user.md user.employer Works at: none (left Globex)'],
    ['Harry Potter is my favorite book.', 'user.md user.favourite.book Favourite book: Harry Potter'],
    ["I'm no longer vegetarian.", 'user.md user.diet Diet: no longer vegetarian'],
    ['I run my own bakery in Leeds.', 'user.md user.business.bakery Runs: own bakery'],
    [
      'I started a new job at Northwind Logistics on Monday, as a data analyst.',
      'user.md user.job Job: data analyst',
    ],
    ['I just got promoted to team lead.', 'user.md user.job Job: team lead'],
    ['I live in Krakow and work as a nurse at the University Hospital', 'user.md user.job Job: nurse'],
    [
      'I live in Krakow and work as a nurse at the University Hospital',
      'user.md user.employer Works at: University Hospital',
    ],
    ['I started eating fish again, so pescatarian now I guess', 'user.md user.diet Diet: pescatarian'],
    ['my manager at Northwind is Priya Raman', 'user.md user.relation.manager Manager: Priya Raman'],
    [
      'yes, but keep answers short please, I read them on my phone',
      'feedback.md feedback.keep-answers-short-read-phone',
    ],
    ['ok but please keep it brief', 'feedback.md feedback.keep-brief'],
    ['We opened a café in March.', 'user.md user.business.cafe Runs: café'],
    ["I'm not vegan anymore, I eat fish now.", 'user.md user.diet Diet: no longer vegan'],
    ["I don't work at Google anymore.", 'user.md user.employer Works at: none (left Google)'],
    ["I'm not a nurse anymore.", 'user.md user.job Job: none (no longer nurse)'],
    ['My favourite band is Radiohead.', 'user.md user.favourite.band Favourite band: Radiohead'],
    ['I really prefer tea over coffee.', 'user.md user.pref.prefer-tea-coffee'],
    ["I can't stand cilantro.", 'user.md user.pref.stand-cilantro'],
    // A later clause's "it" points back at the liking's object, not at something the other person said.
    [
      "I don't like Java at all, never want to use it again.",
      'user.md user.pref.not-java-never-want-use-again',
    ],
    ["I love hiking, it's how I clear my head.", 'user.md user.pref.love-hiking-clear-head'],
    [
      'I stopped eating meat back in September, fish is still fine',
      'user.md user.diet.no-meat Diet: no meat',
    ],
    [
      'and remember this one: no meetings before 10 for me, ever.',
      'user.md user.pref.meetings-before-10-ever',
    ],
    ['No calls after 6pm please.', 'user.md user.pref.calls-after-6pm'],
    ["Please don't use emoji.", 'feedback.md feedback.use-emoji'],
    ['Stop apologizing.', 'feedback.md feedback.stop-apologizing'],
    ['Shorter answers please.', 'feedback.md feedback.shorter-answers'],
    ['Your last summary was way too long.', 'feedback.md feedback.last-summary-way-long'],
    ["I'd rather you skip the preamble.", 'feedback.md feedback.rather-skip-preamble'],
    ['can you keep answers short from now on?', 'feedback.md feedback.keep-answers-short'],
    ["you really don't need to apologise every time.", 'feedback.md feedback.need-apologise-every-time'],
    ['We decided to use Postgres instead of Mongo.', 'project.md decision.use-postgres-instead-mongo'],
    ["we're going with Postgres for Atlas, Mongo is out.", 'project.md decision.postgres-atlas-mongo-out'],
    [
      'decided in the sync: Atlas ships behind a feature flag',
      'project.md decision.sync-atlas-ships-behind-feature-flag',
    ],
    ["Let's go with the blue logo for Atlas.", 'project.md decision.blue-logo-atlas'],
    ['Deadline for the grant is next Friday.', 'project.md plan.deadline-grant 2026-11-20 or 2026-11-27'],
    ['Deadline for the grant is on Friday.', 'project.md plan.deadline-grant 2026-11-20'],
    ["it's official, Atlas launch is December 17.", 'project.md plan.atlas-launch 2026-12-17'],
    // a lead that names the plan keeps its key, so the new day supersedes the old
    [
      'change of plan on Atlas: launch moved from December 31 to January 8, legal needs another week',
      'project.md plan.atlas-launch 2027-01-08',
    ],
    ['ok so change of plans for the offsite: it moved to January 20', 'project.md plan.offsite 2027-01-20'],
    ['My dentist appointment is on March 3rd.', 'project.md plan.dentist-appointment 2027-03-03'],
    ["I can't wait for the concert on Saturday!", 'project.md plan.concert 2026-11-21'],
    ["Saturday's concert will be great, I'm not gonna miss it.", 'project.md plan.concert 2026-11-21'],
    ["I'm not sure about the hotel yet, but the flight is on Saturday.", 'project.md plan.flight 2026-11-21'],
    [
      "I'm still waiting for the visa paperwork from the embassy.",
      'current-state.md thread.waiting-visa-paperwork-embassy',
    ],
    ['Remind me to call the plumber.', 'current-state.md thread.remind-call-plumber'],
    ["I've got to renew the car insurance.", 'current-state.md thread.renew-car-insurance'],
    [
      'Please remind me to renew my passport before March.',
      'current-state.md thread.remind-renew-passport-before-march',
    ],
    ['Please always give me metric units.', 'feedback.md feedback.always-give-metric-units'],
    ["don't call me buddy", 'feedback.md feedback.call-buddy'],
    ["tell my wife Hannah I'll be late", 'user.md user.relation.wife Wife: Hannah'],
    ["I'm Dutch but I live in Spain", 'user.md user.city Lives in: Spain'],
    [
      'I have a golden retriever called Biscuit',
      'user.md user.relation.retriever.biscuit Golden retriever: Biscuit',
    ],
    ['our turtles Shell and Speedy are fine', 'user.md user.relation.turtle.shell Turtle: Shell'],
    ['I like it when you give me code examples', 'feedback.md feedback.give-code-examples'],
    [
      'thanks! that was too long though, shorter next time',
      'feedback.md feedback.long-though-shorter-next-time',
    ],
    ['Big news: I accepted the offer from Globex!', 'user.md user.employer Works at: Globex'],
    ["I'm leaving Acme Corp for Globex in January.", 'user.md user.employer Works at: Globex'],
    ['I start at Globex on Monday.', 'user.md user.employer Works at: Globex'],
    ['Our cat is called Miso.', 'user.md user.relation.cat.miso Cat: Miso'],
    ["We've lived in York for two weeks now.", 'user.md user.city City: York'],
    ['I have lived in Leeds since 2018.', 'user.md user.city City: Leeds'],
    ['My only allergy is shellfish.', 'user.md user.allergy.shellfish Allergy: shellfish'],
    ['my allergies are dust and pollen', 'user.md user.allergy.dust-pollen Allergy: dust and pollen'],
    ['I just got engaged to Ana!', 'user.md user.relation.fiancé Fiancé: Ana'],
    ['Ana and I got engaged last night.', 'user.md user.relation.fiancé Fiancé: Ana'],
    ['I work at the Headingley sports clinic.', 'user.md user.employer Works at: Headingley sports clinic'],
    ["I'm a nurse at St Mary's hospital.", "user.md user.employer Works at: St Mary's hospital"],
    ['Also I have a new flatmate, Lily.', 'user.md user.relation.flatmate.lily Flatmate: Lily'],
    [
      "I got an offer from Northline Logistics, I'm going to be an operations manager.",
      'user.md user.employer Works at: Northline Logistics',
    ],
    [
      "I got an offer from Northline Logistics, I'm going to be an operations manager.",
      'user.md user.job Job: operations manager',
    ],
    [
      'I also got a part-time job as a pharmacy assistant at Harbour Chemist.',
      'user.md user.job Job: pharmacy assistant',
    ],
    [
      'I also got a part-time job as a pharmacy assistant at Harbour Chemist.',
      'user.md user.employer Works at: Harbour Chemist',
    ],
  ])('%s → %s', (text, expected) => {
    expect(summary(classify(text))).toContain(expected)
  })

  it.each([
    'If I moved to Berlin, would taxes be higher?',
    'What if we moved to Lisbon?',
    "I'm thinking about moving to Porto.",
    'Do you like jazz?',
    'Where do I live?',
    "what's a good recipe for pad thai",
    'I love it.',
    "I'd like a refund.",
    'Can you write me a poem?',
    'Please summarise this article.',
    'The meeting is too long.',
    'No worries, sorry for the delay.',
    'I decided to make pasta tonight.',
    "We haven't decided on the venue yet.",
    'Happy Friday!',
    "I'm working on it.",
    'the dog refuses to go out, raining sideways',
    'how long is a marathon in km exactly',
    'My sister said she prefers tea.',
    'My son is allergic to eggs.',
    "I'm allergic to Mondays lol.",
    'My allergy is acting up today.',
    'I have a new flatmate, apparently.',
    'I got an offer from Google but I turned it down.',
    "My sister got an offer from Acme, she's going to be a nurse.",
    'My sister has a new flatmate, Lily.',
    'I lived in Paris for a year.',
    "I've lived in Rome and Oslo.",
    "We're engaged in a lawsuit with the landlord.",
    'My sister is engaged to Mark.',
    "I've been sober for two weeks.",
    'I got a job as a favor to my uncle.',
    'I almost lost my job over that email.',
    'I was fired up after the game!',
    'I left my job at 5 today.',
    'My wife lost her job.',
    'That is my favorite song.',
    "I'm not vegan.",
    "I'm gonna take a shot at starting my own business.",
    'I run a business meeting every Monday.',
    'My sister runs a salon.',
    "I don't work at Google.",
    "I'm not a morning-shift nurse, I'm on nights.",
    "I'm a visual learner, diagrams help",
    "I'm a big reader",
    'I caught a fish',
    "next time let's go somewhere less formal",
    'stay longer next time!',
    // Precision first: none of these says something durable and typed about the speaker.
    'It has made me grow, and even got me out of my secure 9-5 as a banker.',
    'No problem at all!',
    'I got to volunteer at a career fair at a local school, and it was incredible.',
    'I love the color and texture!',
    'I really like your idea, it sounds great.',
    'I love that, it made my day.',
    'Love how you never give up.',
    'Agreed!',
    'We sat by the lake and watched the sun go down.',
    // Another person's name in a possessive is no introduction.
    "I'm Maria's sister.",
    "I'm Tom's biggest fan.",
    // A capitalised adjective is no name, and a meeting or someone's relative is no partner.
    "I'm Sorry.",
    "I'm Happy to help.",
    "I'm Excited!",
    "I'm dating Tom's brother.",
    // Someone else's words about the user, quoted or reported.
    "I'm a teacher, said my mom.",
    '"I\'m a doctor," he said.',
    "My friend said I'm a genius.",
    'My boss thinks I am a natural leader.',
    // A plan the sentence calls off or denies.
    "I'm not going to Paris next Friday.",
    "I can't make it to the concert on Saturday.",
    "I don't need to call the dentist tomorrow.",
    'I was going to visit my aunt next Friday, but she is ill.',
    // A diet for a while, a job no longer held, sarcasm.
    "I'm vegan for January.",
    'I gave up coffee for Lent.',
    'I stopped drinking coffee for a week.',
    "I'm a former teacher.",
    'I love horror movies, said no one ever.',
    // A favourite denied names no favourite.
    'My favorite movie is not Titanic.',
  ])('%s → nothing', (text) => {
    expect(summary(classify(text).filter((fact) => fact.kind !== 'thread'))).toEqual([])
  })
})

describe('classifySentence: open threads', () => {
  // What the speaker is about to say, leaving the chat, or a vague "sometime" is no errand left open.
  it.each([
    'I have to say, the new studio looks amazing.',
    'I have to admit I was nervous at first.',
    'I need to tell you something about the trip.',
    'I need to go now, bye!',
    'I have to run, talk later.',
    'We need to catch up soon!',
    'We need to hang out sometime.',
    'We need to show our support however we can.',
  ])('%s → no thread', (text) => {
    expect(classify(text).filter((fact) => fact.kind === 'thread')).toEqual([])
  })

  it.each([
    'I need to go to the bank and sort out my card.',
    'I still need to renew my passport.',
    "I'm looking for a new apartment in Porto.",
  ])('%s → a thread', (text) => {
    expect(classify(text).map((fact) => fact.kind)).toContain('thread')
  })
})

describe('classifySentence: values, dates and context', () => {
  it('resolves relative dates against the message time in its zone and writes them absolute', () => {
    const [relation, plan] = classify(
      'my sister Inês is coming up from Coimbra on Saturday, staying two nights.',
    )
    expect(relation?.text).toBe(
      'my sister Inês is coming up from Coimbra on Saturday (2026-11-21), staying two nights.',
    )
    expect(plan).toMatchObject({ key: 'plan.sister-ines', value: '2026-11-21', isSingle: true })
  })

  it('reads the old value of a change: "from Lisbon to Porto", "Dec 11, not Dec 4", a moved range', () => {
    expect(classify('update: we moved from Lisbon to Porto last weekend!')[0]).toMatchObject({
      key: 'user.city',
      value: 'Porto',
      previous: 'Lisbon',
    })
    expect(classify('We moved to Porto from Lisbon.')[0]).toMatchObject({
      value: 'Porto',
      previous: 'Lisbon',
    })
    expect(classify('Actually the demo is on Dec 11, not Dec 4.')[0]).toMatchObject({
      value: '2026-12-11',
      previous: '2026-12-04',
    })
    expect(classify('The Atlas launch slipped from Dec 4 to Dec 11.')[0]).toMatchObject({
      key: 'plan.atlas-launch',
      value: '2026-12-11',
      previous: '2026-12-04',
      isCorrection: true,
    })
  })

  it('finds the person a pronoun points back to within the message', () => {
    const facts = classify("he's my partner, in case I mention him", 'Jonas says hi btw.')
    expect(facts[0]).toMatchObject({
      key: 'user.relation.partner',
      value: 'Jonas',
      headline: 'Partner: Jonas',
    })
  })

  it('reads "seeing Tom tomorrow" as a plan, not a partner', () => {
    expect(classify("I'm seeing Tom tomorrow.").map((fact) => [fact.kind, fact.value])).toEqual([
      ['plan', '2026-11-20'],
    ])
  })

  it('keys a denied liking apart from the liking', () => {
    const [denied] = classify("I don't love horror movies.")
    const [liked] = classify('I love horror movies.')
    expect(denied?.key).toBe('user.pref.not-love-horror-movies')
    expect(liked?.key).toBe('user.pref.love-horror-movies')
    expect(classify("I don't like crowds.")[0]?.key).toBe('user.pref.not-crowds')
    expect(classify('I never eat late.').map((fact) => fact.key)).not.toContain('user.pref.eat-late')
  })

  it('keys two plans with no subject apart, so one never reads as the other moved', () => {
    const [seeing] = classify("I'm seeing Tom tomorrow.")
    const [back] = classify("I'll be back on Sunday.")
    expect(seeing?.kind).toBe('plan')
    expect(back?.kind).toBe('plan')
    expect(seeing?.key).not.toBe(back?.key)
  })

  it('finds a plan in a reminder asked for, a rescheduling and the dates after a booking', () => {
    const plans = (text: string, context = ''): string[] =>
      classify(text, context)
        .filter((fact) => fact.kind === 'plan')
        .map((fact) => `${fact.key} ${fact.value}${fact.previous ? ` (was ${fact.previous})` : ''}`)
    expect(plans('Can you remind me that the landlord inspection is on Friday at 10?')).toEqual([
      'plan.landlord-inspection 2026-11-20',
    ])
    expect(plans('Correction: the landlord inspection moved to Monday at 2pm, not Friday.')).toEqual([
      'plan.landlord-inspection 2026-11-23 (was 2026-11-20)',
    ])
    expect(plans('Booked it: KLM flight KL1021 on December 20.')).toEqual([
      'plan.klm-flight-kl1021 2026-12-20',
    ])
    expect(plans('Tokyo on April 3, back from Osaka on April 15.', 'We booked the flights!')).toEqual([
      'plan.tokyo 2027-04-03',
    ])
    expect(plans('Tokyo on April 3, back from Osaka on April 15.', 'It was a lovely evening.')).toEqual([])
  })

  it('keys a dated sentence with no event of its own by the event the sentence before named', () => {
    const [plan] = classify(
      "I think it's Thursday at 3.",
      'Can you remind me when my dentist appointment is?',
    )
    expect(plan).toMatchObject({ key: 'plan.dentist-appointment', value: '2026-11-26' })
    expect(plan?.text).toContain('dentist appointment')
    expect(plan?.text).toContain('Thursday at 3 (2026-11-26)')
    // A sentence with an event word keeps its own.
    expect(classify('The party is on Saturday.', 'My dentist appointment moved.')[0]?.key).toBe('plan.party')
  })

  it('takes the date a plan is moved to as its new one, whatever other day the sentence names', () => {
    const [plan] = classify(
      'bad news, the demo got moved up to December 8 because the leads have an offsite on the 10th',
    )
    expect(plan).toMatchObject({ key: 'plan.demo', value: '2026-12-08', isCorrection: true })
  })

  it('keeps a decision that names what was chosen, in few words', () => {
    expect(summary(classify('ok we decided on Django with Postgres.'))).toEqual([
      'project.md decision.django-postgres',
    ])
    expect(classify('we switched from Postgres to SQLite for staging')[0]?.kind).toBe('decision')
    expect(classify('ok we decided.')).toEqual([])
  })

  it('reads a name put right as a rename, and only where the words are about a name', () => {
    expect(classify('actually her name is spelled Ula, not Ola')).toMatchObject([
      { kind: 'rename', value: 'Ula', previous: 'Ola' },
    ])
    // The user's own name put right is also stated, for a memory that never held the old one.
    expect(summary(classify('my name is Cass, not Cassie'))).toEqual([
      'user.md rename.cassie',
      'user.md user.name Name: Cass',
    ])
    expect(classify("it's Tuesday, not Monday")).toEqual([])
    expect(classify('his name is not important')).toEqual([])
  })

  it('reads a slip put right at once as a rename, but not a day put right', () => {
    expect(classify('sorry, Leith not Leeds, autocorrect hates Scotland')).toMatchObject([
      { kind: 'rename', value: 'Leith', previous: 'Leeds' },
    ])
    expect(classify('oops, Tuesday not Monday').map((fact) => fact.kind)).toEqual(['plan'])
    expect(classify('Leith, not Leeds, is where the ferry goes')).toEqual([])
  })

  it.each([
    ['sorry, I meant Thursday', '2026-11-26'],
    ['no wait, the 24th', '2026-11-24'],
    ["correction, it's Sunday the 29th.", '2026-11-29'],
    ['oops, I meant Thursday not Friday', '2026-11-26'],
  ])('reads "%s" as a day put right (%s), for the plan before it', (text, day) => {
    expect(classify(text)).toMatchObject([{ key: 'plan.amended', value: day, amends: true }])
  })

  it.each([
    'sorry, I meant the one with the red cover',
    "sorry, I'm busy on Thursday",
    'I meant to call on Monday.',
    'sorry, I meant last Thursday',
  ])('puts no day right in "%s"', (text) => {
    expect(classify(text).filter((fact) => fact.amends)).toEqual([])
  })

  it('keys a plan with a generic subject by the other words said with it', () => {
    expect(classify('Start date is Monday.')[0]?.key).toBe('plan.start-date')
    expect(classify('the deadline is Friday', 'The tax return is a pain.')[0]?.key).toBe(
      'plan.tax-return-deadline',
    )
  })

  it('keys a deadline by what is due, not by who asks for it', () => {
    const plans = classify('my manager wants the quarterly report by December 4').filter(
      (fact) => fact.kind === 'plan',
    )
    expect(plans.map((fact) => `${fact.key} ${fact.value}`)).toEqual(['plan.quarterly-report 2026-12-04'])
    expect(classify('my sister Inês is coming up from Coimbra on Saturday')[1]?.key).toBe('plan.sister-ines')
  })

  it('names a pet whose arrival the sentence before told, and a fiancé who proposed there', () => {
    expect(classify("She's a little tabby called Pickle.", 'Big news, we adopted a cat!')[0]).toMatchObject({
      key: 'user.relation.cat.pickle',
      text: "Big news, we adopted a cat! She's a little tabby called Pickle.",
    })
    expect(classify("She's called Mimi.", 'My sister adopted a cat.')).toEqual([])
    expect(classify("We're engaged!", 'Tom proposed last weekend!')[0]).toMatchObject({
      key: 'user.relation.fiancé',
      value: 'Tom',
    })
    expect(classify("We're engaged too!", 'Tom proposed to his girlfriend.')).toEqual([])
  })

  it('keys a plan by what happens, not by the friend who does it with the user', () => {
    expect(classify('Tom booked us a table at the Italian place for Saturday.')[0]?.key).toBe('plan.table')
    expect(classify('Tom and I are doing the Christmas 5k on December 13.')[0]?.key).toBe('plan.christmas-5k')
    expect(classify("I'm meeting Liam's mum for coffee on Saturday.")[0]?.key).toBe('plan.liam-mum')
  })

  it('dates a clause by its own tense: "I hired Priya, she starts on December 1"', () => {
    expect(classify('I hired a second physio, she starts on December 1.')[0]).toMatchObject({
      key: 'plan.second-physio',
      value: '2026-12-01',
    })
    expect(classify('I went to the doctor on Monday, and she says I am fine.')).toEqual([])
  })

  it('reads a run time as a length, not a day, and "died" as past: neither is a plan', () => {
    expect(classify('Sydney Marathon, 4 hours 41 minutes.')).toEqual([])
    expect(
      classify('My flight to Rome takes 2 hours and 5 minutes, it leaves on Saturday.')[0],
    ).toMatchObject({
      key: 'plan.flight',
      value: '2026-11-21',
    })
    expect(summary(classify('Sad news, our dog Pepper died on Sunday.'))).toEqual([
      'user.md user.relation.dog.pepper Dog: Pepper (died)',
    ])
  })

  it('reads "I\'ve got an interview on March 25" as having one ahead, not as something got', () => {
    expect(classify("I've got an interview with a trucking company on March 25.")[0]).toMatchObject({
      key: 'plan.interview',
      value: '2027-03-25',
    })
    expect(classify('On Monday I got a call from the bank.')).toEqual([])
  })

  it('keys a plan by what the sentence moves, and not by a heading before a colon', () => {
    const moved = classify(
      "Emma's mum needs surgery, so we moved the trip again, it's now April 3 next year.",
    )
    expect(moved[0]).toMatchObject({ key: 'plan.trip', value: '2027-04-03' })
    const update = classify(
      "Quick update: Emma's parents are coming for Christmas, they arrive on December 20.",
    )
    expect(update[0]?.key).toBe('plan.emma-parents')
    expect(classify('Dentist: Friday at 3pm.')[0]?.key).toBe('plan.dentist')
  })

  it('reads a plan in each part of "…on December 4 and then …on December 10"', () => {
    const keys = classify("My exams finish on December 4 and then I'm going to Bali on December 10!").map(
      (fact) => `${fact.key} = ${fact.value}`,
    )
    expect(keys).toEqual(['plan.exams = 2026-12-04', 'plan.bali = 2026-12-10'])
    expect(classify('I fly to Bali on December 10 and then I rest.').map((fact) => fact.key)).toEqual([
      'plan.bali',
    ])
  })

  it('names a pet the sentence after its arrival describes first ("…, the kids named her Waffles")', () => {
    expect(classify('A golden retriever, the kids named her Waffles.', 'We got a puppy!')[0]).toMatchObject({
      key: 'user.relation.puppy.waffles',
      text: 'We got a puppy! A golden retriever, the kids named her Waffles.',
    })
    expect(classify('A golden retriever, they named her Bella.', 'My sister got a puppy!')).toEqual([])
    expect(classify('The kids named her Waffles.')).toEqual([])
  })

  it('keeps the sentence a "that\'s my order" points at', () => {
    const facts = classify(
      "that's my order everywhere btw, no sugar",
      'found a café that does a proper oat flat white.',
    )
    expect(facts[0]?.text).toBe(
      "found a café that does a proper oat flat white. that's my order everywhere btw, no sugar",
    )
    expect(facts[0]).toMatchObject({ key: 'user.pref.usual-order', headline: 'Usual order' })
  })

  it('ignores a date that is only a duration and resolves a past weekend backwards', () => {
    expect(classify('Jonas and I want a week in Madeira after Atlas ships')).toEqual([])
    expect(classify('we moved from Lisbon to Porto last weekend!')[0]?.text).toContain(
      'last weekend (2026-11-14 → 2026-11-15)',
    )
  })
})

// A relation that ended (a death, a parting) is kept, but never reads as current, and an ex never takes the place
// of whoever holds the role now.
describe('classifySentence: relations that ended', () => {
  it.each([
    ['Our dog Biscuit died last year.', 'user.md user.relation.dog.biscuit Dog: Biscuit (died)'],
    ['I miss my dog Rex, he passed away in May.', 'user.md user.relation.dog.rex Dog: Rex (died)'],
    ['We had our dog Max put down in March.', 'user.md user.relation.dog.max Dog: Max (died)'],
    ['My late father John taught me to fish.', 'user.md user.relation.father Father: John (died)'],
    ['My ex-wife Laura lives in Leeds.', 'user.md user.relation.exwife.laura Ex-wife: Laura'],
    ['Laura is my ex-wife.', 'user.md user.relation.exwife.laura Ex-wife: Laura'],
    ['I broke up with my girlfriend Mia.', 'user.md user.relation.exgirlfriend.mia Ex-girlfriend: Mia'],
    ['My former boss Dan called.', 'user.md user.relation.formerboss.dan Former boss: Dan'],
    ['My old boss Tim called.', 'user.md user.relation.formerboss.tim Former boss: Tim'],
    ['My old friend Sara is visiting.', 'user.md user.relation.friend.sara Old friend: Sara'],
    ['I have a sister named Ana who died in 2019.', 'user.md user.relation.sister.ana Sister: Ana (died)'],
  ])('%s → %s', (text, expected) => {
    expect(summary(classify(text))).toEqual([expected])
  })

  it.each([
    ['Kai and I broke up last week.', 'user.md user.relation.ex.kai Ex: Kai'],
    ['I split up with Kai in May.', 'user.md user.relation.ex.kai Ex: Kai'],
  ])('reads a parting from a bare name: %s', (text, expected) => {
    expect(summary(classify(text))).toEqual([expected])
  })

  it.each([
    ['Dan and I are back together, long distance for now.', 'Dan'],
    ['I got back together with Mia last week.', 'Mia'],
  ])('reads a reunion as the end of the ex: %s', (text, name) => {
    expect(classify(text)).toMatchObject([
      {
        key: `user.relation.ex.${name.toLowerCase()}`,
        endsOnly: true,
        headline: `Ex: ${name} (back together)`,
      },
    ])
  })

  it.each(['My parents are back together.', 'The band is back together!', 'Dan and Mia are back together.'])(
    'reads no reunion of the user in "%s"',
    (text) => {
      expect(classify(text).filter((fact) => fact.endsOnly)).toEqual([])
    },
  )

  it.each([
    'Ana and I split the bill.',
    'Kai and his girlfriend broke up.',
    'My sister and I broke up the fight.',
    'I split from Acme last year.',
  ])('reads no parting in "%s"', (text) => {
    expect(classify(text)).toEqual([])
  })

  it('keeps an ex apart from the current holder of the role', () => {
    const [ex] = classify('My ex-wife Laura lives in Leeds.')
    const [wife] = classify('My wife Ana is a nurse.')
    expect(ex?.isSingle).toBe(false)
    expect(ex?.key).not.toBe(wife?.key)
  })

  it.each(['My sister Ana passed her driving test.', 'My sister Ana said her phone died.'])(
    'still reads a living relation in "%s"',
    (text) => {
      expect(summary(classify(text))).toContain('user.md user.relation.sister.ana Sister: Ana')
    },
  )
})

describe('classifySentence: a diet given up, an allergy gone', () => {
  it.each([
    ["I've given up on being vegan.", 'user.diet = none'],
    ['I quit keto last month', 'user.diet = none'],
    ['vegetarian again, I just missed cheese too much', 'user.diet = vegetarian'],
    ["turns out I'm not allergic to penicillin after all", 'user.allergy.penicillin = penicillin'],
    ["I've outgrown my egg allergy", 'user.allergy.egg = egg'],
  ])('%s → %s', (text, expected) => {
    expect(classify(text).map((fact) => `${fact.key} = ${fact.value}`)).toEqual([expected])
  })

  it('marks an allergy gone as an ending only, which writes nothing where none is held', () => {
    expect(classify("I'm not allergic to penicillin after all")[0]).toMatchObject({
      endsOnly: true,
      headline: 'Allergy: penicillin (no longer)',
    })
    expect(classify("I'm allergic to penicillin")[0]?.endsOnly).toBeUndefined()
  })

  it.each([
    "I hope I'm not allergic to penicillin",
    "I'm not allergic to anything",
    'my sister is not allergic to cats',
    'I gave up meat for Lent, not the vegan thing',
  ])('ends no allergy or diet in "%s"', (text) => {
    expect(classify(text).filter((fact) => fact.endsOnly || fact.value === 'none')).toEqual([])
  })
})

describe('classifySentence: plans called off', () => {
  it.each([
    ['our holiday is off.', 'plan.holiday'],
    ["the design review's cancelled, Priya's off sick", 'plan.design-review'],
    ['scrap the book club thing, Hannah cancelled it', 'plan.book-club'],
    ['We called off the party.', 'plan.party'],
    ['The wedding has been cancelled because of the storm.', 'plan.wedding'],
    ['Our trip to Rome on Saturday got cancelled.', 'plan.trip-rome'],
  ])('%s → %s = cancelled', (text, key) => {
    expect(classify(text).map((fact) => `${fact.key} = ${fact.value}`)).toEqual([`${key} = cancelled`])
  })

  it.each([
    'my brother cancelled his stag do in Prague',
    'if the trip is cancelled we get a refund',
    "I'm worried the concert might be cancelled.",
    'the match is off to a great start',
    'is the party off?',
    'the lights are off',
  ])('calls nothing off in "%s"', (text) => {
    expect(classify(text).filter((fact) => fact.value === 'cancelled')).toEqual([])
  })
})

describe('classifySentence: gates per clause, not per sentence', () => {
  const keys = (text: string): string[] => classify(text).map((fact) => `${fact.key} = ${fact.value}`)

  it('keeps what a sentence states beside a condition, a doubt or a wish, and not the rest', () => {
    const [allergy] = classify(
      "I found out I'm allergic to wasps too, so who knows if I'll ever go camping again.",
    )
    expect(allergy?.key).toBe('user.allergy.wasps')
    // The entry drops the tail that asserts nothing, and how the user came to know.
    expect(allergy?.text).toBe("I'm allergic to wasps too.")
    expect(keys("I'm allergic to cats but I'd get one if I could.")).toEqual(['user.allergy.cats = cats'])
    expect(keys('My name is Hugo, if that helps.')).toEqual(['user.name = Hugo'])
    expect(keys("if I ever get a dog I'd call it Max")).toEqual([])
    expect(keys("I'd probably be a chef if I hadn't gone into accounting.")).toEqual([])
  })

  it('dates no plan a condition hangs on', () => {
    expect(keys("I'll come over tomorrow if that's fine.")).toEqual([])
    expect(keys('Not sure if I said, but my flight is on Saturday.')).toEqual(['plan.flight = 2026-11-21'])
  })

  it('reads nothing of the user from quotes, beliefs, pretence or fiction', () => {
    expect(keys('"I\'m a doctor," he said, "trust me."')).toEqual([])
    expect(keys('my coworker thinks my name is Steve')).toEqual([])
    expect(keys("I told her I'm a vegetarian just to get out of the barbecue.")).toEqual([])
    expect(keys('For the role play, my name is Captain Reyes.')).toEqual([])
    // The one who says it is still named.
    expect(keys("My son Finn says I'm the best cook.")).toEqual(['user.relation.son.finn = Finn'])
  })

  it('keys "Start date is Monday." by the start date, and "my old boss Tim" as a former boss', () => {
    expect(keys('Start date is Monday.')).toEqual(['plan.start-date = 2026-11-23'])
    expect(keys('My old boss Tim still emails me.')).toEqual(['user.relation.formerboss.tim = Tim'])
    expect(keys('my old dog Benji is asleep')).toEqual([])
  })
})

describe('classifyLine: reference facts', () => {
  const line = (text: string): Fact[] => classifyLine({ ...SOURCE, text })

  it.each([
    ['My frequent flyer number is TP 4482913.', 'Frequent flyer number: TP 4482913'],
    ['Our wifi network is called Fernwood-5G.', 'Wifi network: Fernwood-5G'],
    ['the wifi is called casa-fox-5g btw', 'Wifi: casa-fox-5g'],
    ['My new phone number is +351 912 345 678.', 'Phone number: +351 912 345 678'],
    [
      'new address for all the forms: Rua de Cedofeita 212, 3º Esq., 4050-174 Porto',
      'Address: Rua de Cedofeita 212, 3º Esq., 4050-174 Porto',
    ],
    [
      'they asked for her microchip number AGAIN. putting it here so you have it: 620098100734215',
      'Microchip number: 620098100734215',
    ],
    ['We now live at 12 Elm Street, Apt 4.', 'Address: 12 Elm Street, Apt 4'],
    ['staging is up at harbor-staging.internal.example.com', 'Staging: harbor-staging.internal.example.com'],
    ['our wiki is at https://wiki.example.org/home.', 'Wiki: https://wiki.example.org/home'],
    ['moved last week, new phone number is 555 1234 567', 'Phone number: 555 1234 567'],
  ])('%s → %s', (text, headline) => {
    expect(line(text).map((fact) => fact.headline)).toContain(headline)
  })

  it.each([
    'The wifi password is hunter2.',
    'My phone is dead.',
    'regex for tracking ids like TW-123456-PT',
    'my PIN: 4821',
    'the script is at main.py',
    'she is on twitter.com all day',
    'my first booking is on November 28, a 40th birthday in Harrogate',
    'my room is on the 3rd floor',
  ])('%s → nothing', (text) => {
    expect(line(text)).toEqual([])
  })

  it('never keeps a secret, even next to a reference', () => {
    const [fact] = line('our wifi network is Fernwood-5G, password is hunter2')
    expect(fact?.text).not.toContain('hunter2')
    expect(fact?.headline).not.toContain('hunter2')
  })
})

// Found by two more chats between friends (a retired teacher, a touring musician), each with a trap beside it.
describe('classifySentence: what a teacher and a musician told a friend', () => {
  const keyed = (text: string, context = ''): string[] =>
    classify(text, context).map((fact) => `${fact.key} = ${fact.value}`)

  it('keys a plan by an operation, the date in a later clause', () => {
    expect(keyed("They've given me a date, my hip operation is on December 14.")).toEqual([
      'plan.hip-operation = 2026-12-14',
    ])
    expect(keyed("I'm in operations now, the audit is on December 14.")).not.toContain(
      'plan.operation = 2026-12-14',
    )
  })

  it('keys "It now starts on…" by the event the sentence before named, unless it names one', () => {
    expect(
      keyed('It now starts on December 8, the promoter messed up the venues.', 'Tour got pushed back!'),
    ).toEqual(['plan.tour = 2026-12-08'])
    expect(keyed("It's my birthday party on December 5.", 'Tour got pushed back!')).toEqual([
      'plan.birthday-party = 2026-12-05',
    ])
  })

  it('keys a plan by what an opening clause moves, unless its mover names an event', () => {
    expect(keyed('The market moved my stall to December 19 because of the regatta.')).toEqual([
      'plan.stall = 2026-12-19',
    ])
    expect(keyed('The dentist moved my appointment to December 19.')).toEqual(['plan.dentist = 2026-12-19'])
  })

  it('reads grandchildren as people of the user, not a friend’s', () => {
    expect(summary(classify('My granddaughter Ellie wants to make a bowl with me.'))).toEqual([
      'user.md user.relation.granddaughter.ellie Granddaughter: Ellie',
    ])
    expect(keyed('Our grandchildren Ellie and Finn are staying over.')).toEqual([
      'user.relation.grandchild.ellie = Ellie',
      'user.relation.grandchild.finn = Finn',
    ])
    expect(classify("My friend's granddaughter Ellie is seven.")).toEqual([])
  })

  it("reads \"I'm also vegan now\" as the user's diet, not a flatmate's", () => {
    expect(keyed("I'm also vegan now, Olivia got me into it.")).toEqual(['user.diet = vegan'])
    expect(classify('My flatmate is also vegan now.')).toEqual([])
  })

  it('reads a job "there", at the one place the sentence named, but no custom or visit', () => {
    expect(
      keyed(
        "I'm still pulling shots at Blue Door Coffee to pay rent, I'm a barista there four mornings a week.",
      ),
    ).toEqual(['user.job = barista', 'user.employer = Blue Door Coffee'])
    expect(keyed("I've been a paramedic for twelve years.")).toEqual(['user.job = paramedic'])
    for (const trap of [
      "I had lunch at Nando's with Tom, I'm a regular there.",
      "I'm a customer there.",
      "I'm a patient at St Mary's.",
      "We met at Lena's and then at Blue Door, I'm a stranger there.",
    ])
      expect(classify(trap)).toEqual([])
  })

  it('reads a subject taught at a named place as the job, not a class taught once or a friend’s', () => {
    expect(keyed("I quit Blue Door too, I'm teaching guitar lessons at Harmony Music School now.")).toEqual([
      'user.job = guitar teacher',
      'user.employer = Harmony Music School',
    ])
    for (const trap of [
      "I'm teaching a class at Stanford this fall.",
      "I'm teaching my son at home.",
      'My sister is teaching yoga at FlowFit.',
    ])
      expect(classify(trap)).toEqual([])
  })

  it('reads a closing as a dated plan', () => {
    expect(keyed('The sale closes on December 21.')).toEqual(['plan.sale-closes = 2026-12-21'])
    expect(keyed('The sale was great, we closed a lot of deals.')).toEqual([])
  })
})
