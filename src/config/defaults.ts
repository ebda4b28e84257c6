// Default settings, read off the schema (src/config/schema.ts holds each default next to its rule).
import { configFileSchema } from './schema.js'

/** Every setting's default; where things live and the time zone are decided by resolveConfig. */
export const DEFAULTS = configFileSchema.parse({})
