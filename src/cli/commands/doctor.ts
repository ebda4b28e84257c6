// `dreamlane doctor`: lists what is wrong with the workspace, config, messages DB and state, with a fix for each.
import type { Command } from 'commander'
import type { DoctorReport } from '../../app/doctor.js'
import { systemClock } from '../../clock.js'
import { flagsOf, globalOptions } from '../context.js'
import { EXIT } from '../exit-codes.js'

const MARKS = { ok: '✓', warning: '!', problem: '✗' } as const

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'check the workspace, config, messages DB and state; say how to fix each problem (exit 0 when healthy)',
    )
    .action(async (_options, command: Command) => {
      const options = globalOptions(command)
      const { diagnose } = await import('../../app/doctor.js')
      const report = await diagnose({ env: process.env, flags: flagsOf(options), clock: systemClock })
      console.log(options.json ? JSON.stringify(report, null, 2) : describeReport(report))
      process.exitCode = report.healthy ? EXIT.ok : EXIT.unhealthy
    })
}

function describeReport(report: DoctorReport): string {
  const lines: string[] = []
  for (const section of report.sections) {
    lines.push(`${section.area}:`)
    for (const finding of section.findings) {
      lines.push(`  ${MARKS[finding.severity]} ${finding.message}`)
      if (finding.fix) lines.push(`      fix: ${finding.fix}`)
    }
  }
  const all = report.sections.flatMap((section) => section.findings)
  const count = (severity: string) => all.filter((finding) => finding.severity === severity).length
  lines.push(
    report.healthy
      ? `healthy${count('warning') ? ` (${count('warning')} warning(s))` : ''}`
      : `${count('problem')} problem(s), ${count('warning')} warning(s)`,
  )
  return lines.join('\n')
}
