export { fixedClock } from '../../src/clock.js'
