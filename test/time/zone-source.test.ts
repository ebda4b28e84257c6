import { symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultZoneSource } from '../../src/time/zone-source.js'
import { makeTempDir } from '../helpers/workspace.js'

describe('defaultZoneSource', () => {
  it('changes with the localtime link and with TZ, and is the same while neither changes', () => {
    const dir = makeTempDir()
    const link = join(dir, 'localtime')
    symlinkSync('/usr/share/zoneinfo/Europe/Lisbon', link)
    const lisbon = defaultZoneSource(undefined, link)
    expect(lisbon).toContain('Europe/Lisbon')
    expect(defaultZoneSource(undefined, link)).toBe(lisbon)
    expect(defaultZoneSource('Asia/Tokyo', link)).not.toBe(lisbon)
    unlinkSync(link)
    symlinkSync('/usr/share/zoneinfo/Asia/Tokyo', link)
    expect(defaultZoneSource(undefined, link)).not.toBe(lisbon)
  })

  it('is unknown where the zone is a copied file or missing, so ICU is asked', () => {
    const dir = makeTempDir()
    const copied = join(dir, 'localtime')
    writeFileSync(copied, 'TZif2')
    expect(defaultZoneSource(undefined, copied)).toBeUndefined()
    expect(defaultZoneSource('UTC', join(dir, 'missing'))).toBeUndefined()
  })
})
