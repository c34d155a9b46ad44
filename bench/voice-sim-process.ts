/**
 * The voice-provider simulator in its own process, driven through its control API (/_sim/*): a
 * provider is another machine, so the bench's server should not pay for the provider's work on
 * its own event loop (in process, the simulator's answers to a 10,000-call sync cost the server's
 * thread ~2 s of its ~19 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface VoiceSimProcess {
  url: string;
  addCalls(apiKey: string, options: { count: number; spreadDays: number }): Promise<void>;
  close(): Promise<void>;
}

export async function startVoiceSimProcess(): Promise<VoiceSimProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'sim/voice-provider/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, VOICE_SIM_PORT: '0', VOICE_SIM_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk) => {
      seen += String(chunk);
      const found = /simulator on (http:\/\/[^\s]+)/.exec(seen);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the voice simulator exited (${code}): ${seen}`)));
  });
  const control = async (route: string, body: unknown) => {
    const res = await fetch(`${url}/_sim/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`the voice simulator answered ${res.status} to /_sim/${route}`);
  };
  return {
    url,
    addCalls: (apiKey, options) => control('calls', { apiKey, ...options }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
