import type { ScormInteraction, ScormInteractionStats } from '@portal/contracts';

/**
 * Item analysis of a package's interactions, by id, in the order they first appear: how many
 * attempts answered each, how many right (`correct` in 2004 and 1.2 alike), and the mean latency.
 * A package that records one interaction several times (a retried question) counts its last record.
 */
export function analyzeInteractions(attempts: Array<{ interactions: ScormInteraction[] }>): ScormInteractionStats[] {
  const byId = new Map<string, { type: string; answered: number; correct: number; latencySum: number; latencies: number }>();
  for (const { interactions } of attempts) {
    const last = new Map(interactions.filter((i) => i.id).map((i) => [i.id, i]));
    for (const item of last.values()) {
      const stats = byId.get(item.id) ?? { type: item.type, answered: 0, correct: 0, latencySum: 0, latencies: 0 };
      stats.answered += 1;
      if (item.result === 'correct') stats.correct += 1;
      if (item.latency !== null) {
        stats.latencySum += item.latency;
        stats.latencies += 1;
      }
      byId.set(item.id, stats);
    }
  }
  return [...byId.entries()].map(([id, s]) => ({
    id,
    type: s.type,
    answered: s.answered,
    correct: s.correct,
    correctPercentage: Math.round((s.correct / s.answered) * 100),
    averageLatency: s.latencies ? Math.round((s.latencySum / s.latencies) * 10) / 10 : null,
  }));
}
