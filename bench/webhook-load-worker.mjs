// Load generator for the webhook benchmark, in its own thread so it does not share the
// server's event loop: `senders` concurrent loops POST Bland post-call bodies until `until`.
import { parentPort, workerData } from 'node:worker_threads';

const { base, tokens, senders, durationMs, prefix, bodyTemplate } = workerData;
const until = Date.now() + durationMs;
const sent = new Set();
let delivered = 0;
let failed = 0;
let seq = 0;

await Promise.all(
  Array.from({ length: senders }, async (_, sender) => {
    const recent = [];
    while (Date.now() < until) {
      const n = seq++;
      // One delivery in ten repeats an earlier call: duplicates must merge, not add rows.
      const repeat = recent.length > 0 && n % 10 === 0;
      const callId = repeat ? recent[n % recent.length] : `${prefix}-${sender}-${n}`;
      try {
        const res = await fetch(`${base}/api/webhooks/voice/${tokens[sender % tokens.length]}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...bodyTemplate, call_id: callId }),
        });
        await res.arrayBuffer();
        if (res.status === 200) {
          delivered++;
          sent.add(callId);
          if (!repeat) recent.push(callId);
        } else failed++;
      } catch {
        failed++;
      }
    }
  }),
);
parentPort.postMessage({ delivered, failed, distinct: sent.size });
