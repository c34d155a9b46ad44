/** Types of server-probe.mjs (plain JavaScript: the fresh-clone check runs it without tsx). */
export function freePort(): Promise<number>;
export function waitFor(url: string, seconds: number): Promise<boolean>;
export function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): { output(): string; stop(): void };
