/**
 * Operations: what the probes answer. GET /healthz says the process is alive (no
 * database); GET /readyz says whether this instance should get traffic, naming each part it
 * checked and the ones that failed; what each part found only with the metrics token.
 */
import { z } from 'zod';

export const Liveness = z.object({ ok: z.literal(true) });
export type Liveness = z.infer<typeof Liveness>;

/** Each part /readyz checks, in the order it checks them. */
export const READINESS_PARTS = ['lifecycle', 'database', 'migrations', 'outbox', 'live'] as const;
export type ReadinessPart = (typeof READINESS_PARTS)[number];

export const ReadinessCheck = z.object({
  ok: z.boolean(),
  /** For people: what was found ("answered in 2 ms", "2 pending: 030_x, 031_y", "stopping"). */
  detail: z.string(),
});

export const Readiness = z.object({
  ready: z.boolean(),
  /** The parts that failed, in check order; empty when ready. */
  failing: z.array(z.enum(READINESS_PARTS)),
  /** Each part's finding: only to a caller with the metrics token (streams open, latency). */
  checks: z.record(z.enum(READINESS_PARTS), ReadinessCheck).optional(),
  /** One line naming what failed (or "ready"); with the metrics token, how each failed. */
  message: z.string(),
});
export type Readiness = z.infer<typeof Readiness>;
