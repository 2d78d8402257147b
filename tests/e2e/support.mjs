// Shared by the browser tests: paths, Chromium's flags, free ports, and watching the server process.
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The built client. */
export const DIST = join(ROOT, 'client', 'dist');
/** Debian's Chromium, headless, with nothing that reaches for the network on its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const socket = net.createServer();
    socket.unref();
    socket.on('error', reject);
    socket.listen(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolvePort(port));
    });
  });
}

/**
 * Helpers bound to a test file's `env` (which has `output: []` and `exited`): keep the server's last
 * 200 lines, format them for failure messages, and wait for its readiness probe.
 */
export function serverHelpers(env) {
  function keepOutput(stream) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      env.output.push(...chunk.split('\n').filter(Boolean));
      env.output.splice(0, Math.max(0, env.output.length - 200));
    });
  }

  function serverLog() {
    return `\n--- server output ---\n${env.output.join('\n')}`;
  }

  /** Polls the ops listener's readiness probe for up to 30 s. */
  async function waitReady(opsBase) {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (env.exited) throw new Error(`veranda exited early (${JSON.stringify(env.exited)})${serverLog()}`);
      try {
        const res = await fetch(`${opsBase}/health/ready`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`veranda did not become ready within 30 s${serverLog()}`);
  }

  return { keepOutput, serverLog, waitReady };
}
