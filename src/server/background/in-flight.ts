/**
 * Work a request starts and does not wait for (the privacy work a settings change wakes), kept
 * per app in its dependencies (`deps.inFlight`) so that closing the app waits for it: a test's
 * database goes with the app, and a stopping server finishes what it began.
 */
export interface WorkInFlight {
  /** Follows `work` until it settles; its failure is the caller's to handle. */
  add(work: Promise<unknown>): void;
  /** Resolves once every piece of work added (including any added meanwhile) has settled. */
  settled(): Promise<void>;
}

export function createWorkInFlight(): WorkInFlight {
  const pending = new Set<Promise<unknown>>();
  return {
    add(work) {
      const followed = work.finally(() => pending.delete(followed));
      // Settled either way; the caller handles the failure on `work` itself.
      followed.catch(() => {});
      pending.add(followed);
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
