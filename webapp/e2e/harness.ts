/**
 * Runs the real product for the journeys: the API server built from
 * cmd/api, serving the built webapp, on a database of its own.
 *
 * 1. `npm run build` when webapp/dist is missing or older than the sources.
 * 2. `go build -o bin/api ./cmd/api` (a no-op when `make build` just ran).
 * 3. `go run ./cmd/devdb -create e2e_<time>_<random>`: an empty database on
 *    the server of TEST_DATABASE_URL, else on the private test PostgreSQL
 *    under .data/testpg. The API migrates it at start-up (development).
 * 4. `bin/api -with-projector -addr 127.0.0.1:0` in development with no
 *    Stripe or SMTP settings: the simulated payment provider and the dev
 *    mailbox. The address comes from its "listening on" line; the harness
 *    then waits for /readyz. Its log goes to test-results/server.log.
 *
 * The database is left behind; the next `devdb -create` drops those older
 * than an hour.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const e2eDir = dirname(fileURLToPath(import.meta.url));
export const webappDir = resolve(e2eDir, '..');
export const repoRoot = resolve(webappDir, '..');
export const resultsDir = join(webappDir, 'test-results');

const START_TIMEOUT_MS = 120_000;

/** databaseURL is the server's DATABASE_URL, for commands such as `bin/api staff add`. */
export type Harness = { baseURL: string; databaseURL: string; stop: () => Promise<void> };

function log(message: string) {
  process.stderr.write(`e2e: ${message}\n`);
}

/** Newest modification time under path (files only), in ms. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0);
}

async function buildWebapp() {
  const built = newest(join(webappDir, 'dist', 'index.html'));
  const sources = Math.max(
    ...['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) => newest(join(webappDir, p))),
  );
  if (built > sources) return;
  log(built ? 'webapp/dist is older than the sources: npm run build' : 'no webapp/dist: npm run build');
  await run('npm', ['run', 'build'], { cwd: webappDir, maxBuffer: 16 << 20 });
}

async function buildServer(): Promise<string> {
  const bin = join(repoRoot, 'bin', 'api');
  await run('go', ['build', '-o', bin, './cmd/api'], { cwd: repoRoot, maxBuffer: 16 << 20 });
  return bin;
}

async function createDatabase(): Promise<string> {
  const name = `e2e_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const { stdout } = await run('go', ['run', './cmd/devdb', '-create', name], { cwd: repoRoot });
  const url = stdout.trim();
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`devdb -create printed no database URL: ${stdout}`);
  return url;
}

/** The server's environment: development, no Stripe, no SMTP. */
function serverEnv(databaseURL: string, publicURL: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('STRIPE_') || key === 'SMTP_URL' || key === 'PORT' || key === 'APP_BASE_URL') continue;
    env[key] = value;
  }
  return {
    ...env,
    APP_ENV: 'development',
    METRICS_ADDR: '127.0.0.1:0',
    DATABASE_URL: databaseURL,
    WEBAPP_DIR: join(webappDir, 'dist'),
    // Its own address, as an operator sets it: the API keys page's examples
    // and the emails' links point here.
    APP_BASE_URL: publicURL,
  };
}

/** A port free on 127.0.0.1 a moment ago, for the server and its APP_BASE_URL. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Resolves with the address from the server's "listening on" line. */
function listeningAddress(server: ChildProcess, logPath: string): Promise<string> {
  return new Promise((resolveURL, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`the server did not listen within ${START_TIMEOUT_MS / 1000}s`)), START_TIMEOUT_MS);
    function fail(error: Error) {
      clearTimeout(timer);
      reject(new Error(`${error.message}; see ${logPath}`));
    }
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveURL(match[1]);
      }
    });
    server.once('exit', (code, signal) => fail(new Error(`the server exited during start-up (${signal ?? code})`)));
    server.once('error', (error) => fail(error));
  });
}

async function waitReady(baseURL: string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseURL}/readyz`);
      if (response.ok) return;
      last = `${response.status}: ${await response.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${baseURL}/readyz did not answer 200 (last: ${last})`);
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    server.kill('SIGTERM');
  });
}

export async function startHarness(): Promise<Harness> {
  // Screenshots are this run's alone (support.ts writes them).
  rmSync(join(resultsDir, 'screenshots'), { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  await buildWebapp();
  const bin = await buildServer();
  const databaseURL = await createDatabase();
  log(`database ${new URL(databaseURL).pathname.slice(1)}`);

  const logPath = join(resultsDir, 'server.log');
  const serverLog = createWriteStream(logPath);
  const addr = `127.0.0.1:${await freePort()}`;
  const server = spawn(bin, ['-with-projector', '-addr', addr], {
    cwd: repoRoot,
    env: serverEnv(databaseURL, `http://${addr}`),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.pipe(serverLog, { end: false });
  server.stderr!.pipe(serverLog, { end: false });
  // Never outlive the test runner.
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    await stopServer(server);
    process.removeListener('exit', killOnExit);
    serverLog.end();
  };
  try {
    const baseURL = await listeningAddress(server, logPath);
    await waitReady(baseURL);
    log(`server ${baseURL} (log: ${logPath})`);
    return { baseURL, databaseURL, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
