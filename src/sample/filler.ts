// Filler exchanges: the everyday questions around the story that a good dream should NOT keep as memory.
import type { ChatKey, Exchange } from './types.js'

// Questions and one-off chatter only: no durable statements about Maya, so nothing here belongs in memory.
const SMALL_TALK: readonly Exchange[] = [
  [
    "what's a synonym for 'leverage' that doesn't sound like a consultant",
    "Try 'use', 'build on' or 'make the most of'.",
  ],
  [
    'remind me: mutex vs semaphore, one line each',
    'Mutex: one holder at a time, released by its owner. Semaphore: a counter of permits anyone can signal.',
  ],
  ["is it 'fewer' or 'less' commits", "'Fewer commits': they're countable."],
  ['what year was the Carnation Revolution', '1974, on April 25.'],
  ['3 names for a Slack channel about flaky tests', '#flake-watch, #test-weather, #retry-later.'],
  [
    'podcast for a 40 minute walk, nothing techy',
    "'99% Invisible': design stories, most episodes fit a walk.",
  ],
  ["how do you say 'see you tomorrow' in Portuguese", "'Até amanhã.'"],
  [
    'CAP theorem in one sentence?',
    'When the network partitions, a distributed store has to choose between consistency and availability.',
  ],
  [
    "what's the film where the guy has no short-term memory and uses tattoos",
    'Memento (2000), by Christopher Nolan.',
  ],
  ['raining sideways, the dog refuses to go out', 'Sensible dog. A short loop and a towel by the door.'],
  ['how many steps is a 5k roughly', 'Around 6,000–7,000, depending on stride.'],
  [
    'quick stretch for a stiff neck from laptop hunching?',
    'Chin tucks: 10 slow reps, hold 3 seconds each, then shoulder rolls.',
  ],
  [
    'polite way to say no to a recruiter',
    "'Thanks for thinking of me — I'm happy where I am, but let's stay in touch.'",
  ],
  ["spell check: 'accomodate'", "'Accommodate': two c's, two m's."],
  ["what's 17% of 2,340", '397.8'],
  [
    'idempotent in HTTP terms, quickly',
    'Repeating the request has the same effect as sending it once. PUT and DELETE should be; POST usually is not.',
  ],
  ['something light to watch tonight?', "'Paddington 2': light, clever, 104 minutes."],
  ['the neighbours are drilling again 🙃', 'Headphones and a focus playlist until it stops?'],
  ['how long is a marathon in km exactly', '42.195 km.'],
  [
    "what's the plural of 'octopus'",
    "'Octopuses' is standard; 'octopodes' if you want to be fancy. Not 'octopi'.",
  ],
  [
    'why is the sky darker blue straight up than near the horizon',
    'Near the horizon you look through more air, which scatters more light of every colour and washes the blue out.',
  ],
  [
    'give me a good rule of thumb for tipping in the US',
    '18–20% at sit-down restaurants, a dollar or two per drink at a bar.',
  ],
  ['what time is it in Tokyo when it is noon in London', '21:00 (20:00 during British Summer Time).'],
  [
    'how do I get sticker residue off a laptop',
    'A little cooking oil or isopropyl alcohol on a cloth, then wipe dry.',
  ],
]

const KITCHEN: readonly Exchange[] = [
  [
    'what can I make with chickpeas, spinach and half a lemon',
    'A quick stew: garlic, cumin, chickpeas, spinach, lemon at the end. About 20 minutes.',
  ],
  ['how long does cooked rice keep in the fridge', 'One day is safest, two at most. Cool it quickly first.'],
  ['substitute for buttermilk?', 'Milk plus a tablespoon of lemon juice per cup; let it sit 5 minutes.'],
  [
    'bacalhau à brás — do I really need to soak the cod overnight',
    'Yes: 24–48 hours in the fridge, changing the water 3 or 4 times.',
  ],
  [
    'how do I stop pasta water boiling over',
    'Bigger pot, lower the heat once it boils, or lay a wooden spoon across the top.',
  ],
  ['best way to reheat pizza', 'Dry pan on medium heat, lid on for the last minute.'],
  [
    'oven idea for a rainy Sunday',
    'A tray bake: potatoes, peppers, onions and halloumi, 200 °C for 40 minutes.',
  ],
  ['how many grams in a cup of flour', 'About 120–125 g.'],
  [
    'can I freeze soup that has potatoes in it',
    'Yes, but the potatoes go grainy; blend it, or add fresh potato when reheating.',
  ],
  ['quick dessert with only eggs, sugar and lemons', 'Lemon curd: 10 minutes on low heat, stirring.'],
  ['baking soda vs baking powder?', 'Soda needs an acid in the recipe; powder carries its own.'],
  ['how long to roast a whole sea bream', 'About 20–25 minutes at 200 °C for a 500 g fish.'],
  [
    'what shouldn’t go in a vegetable stock from scraps',
    'Skip cabbage, broccoli and beetroot; they take over.',
  ],
  ['is dashi essential for miso soup', 'It helps a lot; a kombu-only dashi takes 20 minutes and is enough.'],
  [
    'how to keep basil alive on a windowsill',
    'Water from below, pinch off the flower buds, give it 6 hours of light.',
  ],
]

const ATLAS: readonly Exchange[] = [
  [
    '3-line standup: finished ingestion retries, starting carrier webhooks, no blockers',
    'Yesterday: ingestion retries done.\nToday: carrier webhooks.\nBlockers: none.',
  ],
  [
    'sane connection pool size per pod for a service doing ~200 rps?',
    'Start around 10–20 per pod and measure wait time; more connections rarely help past the core count.',
  ],
  ['regex for tracking ids like TW-123456-PT', '^TW-\\d{6}-[A-Z]{2}$'],
  [
    'exponential backoff with jitter in two lines',
    'Wait a random time between 0 and base × 2^attempt, capped. Randomness stops clients retrying in lockstep.',
  ],
  [
    'summarise for the team: webhook retries double-posted because the idempotency key was regenerated per attempt',
    'Webhook retries double-posted: the idempotency key changed on every attempt. Fix: create it once per event and reuse it.',
  ],
  [
    'staging deploy is red again, what do I check first',
    'Recent migrations, then config differences, then the health-check logs.',
  ],
  ['rename ideas for ShipmentEventProcessorService', 'EventIngestor, ShipmentFeed, TrackingPipeline.'],
  [
    'what does at-least-once delivery mean for our consumers',
    'They must be idempotent: the same event can arrive twice.',
  ],
  [
    'draft a polite nudge to the mobile team about the API review',
    "'Hi all — a gentle nudge on the Atlas API review. Could you add comments by Thursday?'",
  ],
  [
    'usual columns in an audit log table?',
    'id, actor, action, entity, entity_id, before, after, created_at, request_id.',
  ],
  ['OpenAPI: how do I mark a field deprecated', 'Add `deprecated: true` to the property schema.'],
  [
    'how do I explain p99 latency to a PM',
    '99 out of 100 requests are faster than this; the slowest 1% are what angry customers feel.',
  ],
  ['the carrier sandbox is down again 🙄', 'Mock it with recorded responses so the team is not blocked.'],
  [
    'checklist for a go/no-go meeting',
    '- open P1 bugs\n- dashboards and alerts live\n- rollback tested\n- support briefed',
  ],
  [
    'k6: ramp to 500 virtual users over 5 minutes?',
    'Use `stages: [{ duration: "5m", target: 500 }]` in the options.',
  ],
  [
    'review comment that says "this is wrong" but nicer',
    "'I think this misses the retry case — could we add a test for it?'",
  ],
  [
    'what goes in a good runbook entry',
    'Symptom, dashboards to check, likely causes, exact commands, who to call.',
  ],
]

const TRIP: readonly Exchange[] = [
  ['best time of year for hiking in Madeira', 'April to October is driest; autumn is warm and less crowded.'],
  [
    'is Pico do Arieiro to Pico Ruivo ok for fit-ish beginners',
    'Yes if you are fine with stairs and heights; about 3 hours each way.',
  ],
  ['do we need a car there', 'Not in Funchal; for the north and the trailheads it saves a lot of time.'],
  [
    'what to pack for a week of Madeira hikes',
    '- rain jacket\n- headlamp for the tunnels\n- grippy shoes\n- layers, the peaks are cold',
  ],
  ['are the levada walks busy', 'The famous ones are busy from 10:00; start early.'],
]

const TALK: readonly Exchange[] = [
  [
    'a hook for the first slide of an event sourcing talk',
    "'Your bank never overwrites your balance. Why does your database?'",
  ],
  ['how many slides for 25 minutes', '15–20, fewer if there is a demo.'],
  ['is 5 minutes of live coding a bad idea', 'Fine if it is rehearsed and you have a recorded fallback.'],
  [
    'a simple analogy for event sourcing',
    'A bank statement: the balance is derived from the list of transactions.',
  ],
  [
    "how do I handle a question I can't answer on stage",
    "'Good question — I don't know, let's talk after.' Then actually follow up.",
  ],
  ['practice run took 31 minutes, what do I cut', 'The second example and the history slide; keep the demo.'],
]

/** Filler pools by chat; scene-only chats (the regenerated branches) have none. */
export const FILLER: Partial<Record<ChatKey, readonly Exchange[]>> = {
  main: SMALL_TALK,
  kitchen: KITCHEN,
  atlas: ATLAS,
  trip: TRIP,
  talk: TALK,
}

/** How often a filler burst lands in each chat (relative weights). */
export const FILLER_WEIGHTS: Partial<Record<ChatKey, number>> = {
  main: 5,
  kitchen: 2,
  atlas: 3,
  trip: 1,
  talk: 1,
}
