/**
 * Where this instance is in its life, for /readyz: `starting` until main.ts has done
 * its start-up work and listens, `ready` while it serves, `stopping` from SIGTERM on (before it
 * drains, so a load balancer stops sending first). Plumbing: no I/O, no feature.
 */
export type Phase = 'starting' | 'ready' | 'stopping';

export interface Lifecycle {
  readonly phase: Phase;
  /** Start-up work is done and the server listens. */
  markReady(): void;
  /** SIGTERM: never ready again. */
  markStopping(): void;
}

export function createLifecycle(): Lifecycle {
  let phase: Phase = 'starting';
  return {
    get phase() {
      return phase;
    },
    markReady() {
      if (phase === 'starting') phase = 'ready';
    },
    markStopping() {
      phase = 'stopping';
    },
  };
}
