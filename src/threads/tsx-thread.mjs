// Development only: starts a worker thread on a TypeScript entry (tests and `tsx` runs load src/, not dist/).
// Node 20 ignores `--import tsx` in a worker's execArgv, so the loader is registered here before the import.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
