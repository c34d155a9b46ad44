// The live streams of the benchmark, in their own thread so reading them does not load the
// server's event loop (a browser reads its stream on another machine): opens one stream per
// cookie, says when all are open, then reports each `call` event's arrival (wall-clock ms) while
// asked to, and only counts them otherwise (the ingestion load would flood the messages).
import { parentPort, workerData } from 'node:worker_threads';

const { url, cookies } = workerData;
const controllers = [];
let reporting = true;
let events = 0;

async function open(cookie) {
  const controller = new AbortController();
  controllers.push(controller);
  const res = await fetch(url, { headers: { cookie }, signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let ready;
  const opened = new Promise((resolve) => {
    ready = resolve;
  });
  (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.includes('event: ready')) ready();
          if (block.includes('event: call')) {
            events++;
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (reporting && data)
              parentPort.postMessage({
                callId: JSON.parse(data).callId,
                at: performance.timeOrigin + performance.now(),
              });
          }
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // closed by the bench
    }
  })();
  await opened;
}

parentPort.on('message', (message) => {
  if (message === 'quiet') reporting = false;
  if (message === 'count') parentPort.postMessage({ events });
  if (message === 'close') {
    for (const c of controllers) c.abort();
    parentPort.close();
  }
});

for (let i = 0; i < cookies.length; i += 100) await Promise.all(cookies.slice(i, i + 100).map(open));
parentPort.postMessage({ ready: true });
