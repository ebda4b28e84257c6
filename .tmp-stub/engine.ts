export function createOfflineProvider(_o?: { memoryBudgetBytes?: number }) {
  return { name: 'offline', async runTurn() { throw new Error('stub') } }
}
