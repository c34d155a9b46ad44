/**
 * Runs the voice-provider simulator on its own: `npx tsx sim/voice-provider/main.ts`.
 * VOICE_SIM_PORT (default 4010) and VOICE_SIM_HOST (default 127.0.0.1). Seeds `sim_demo_key`.
 */
import { SIM_DEMO_KEY, seedDemoAccount, startVoiceSim } from './index';

async function main() {
  const port = Number(process.env.VOICE_SIM_PORT ?? 4010);
  const host = process.env.VOICE_SIM_HOST ?? '127.0.0.1';
  const sim = await startVoiceSim({ port, host });
  seedDemoAccount(sim);
  console.log(
    `voice-provider simulator on ${sim.url} (API key "${SIM_DEMO_KEY}", control API at ${sim.url}/_sim/*)`,
  );
  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error('voice-provider simulator failed to start:', error);
  process.exit(1);
});
