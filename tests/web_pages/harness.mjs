// What the browser tests share (tests/web_pages/README.md): a stackrace-server with its web pages on free ports, bots
// racing on it, and headless Chromium driven over the DevTools protocol through a pipe (--remote-debugging-pipe: no
// port, no WebSocket client needed; node's own streams only). Every wait has a deadline; nothing sleeps to
// synchronise.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

export function check(condition, message) {
  if (!condition) fail(message);
  console.log(`ok: ${message}`);
}

export function tempDir(name) { return mkdtempSync(join(tmpdir(), `sr-${name}-`)); }

export async function freeTcpPort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

export async function freeUdpPort() {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    s.on('error', reject);
    s.bind(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// Waits for `predicate` (sync or async) to hold, polling every `everyMs`, or fails after timeoutMs.
export async function waitFor(what, predicate, timeoutMs = 60000, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// Reads the Server-Sent Events stream at `url` until `predicate(event, data)` holds for one of its events (data parsed
// as JSON), or fails after timeoutMs; the stream is closed either way. Returns that event's data.
export async function readFeedUntil(what, url, predicate, timeoutMs = 60000) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(url, { signal: abort.signal });
    if (!response.ok) fail(`${url}: HTTP ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) {
          const value = JSON.parse(data);
          if (predicate(event, value)) return value;
        }
      }
    }
    fail(`the feed ${url} ended before ${what}`);
  } catch (e) {
    if (abort.signal.aborted) fail(`timed out waiting for ${what}`);
    throw e;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

// A process whose output is kept; `lines` grows as it prints.
export function run(bin, args, options = {}) {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const p = { child, out: '', err: '', exited: null };
  child.stdout.on('data', (d) => { p.out += d; });
  child.stderr.on('data', (d) => { p.err += d; });
  p.done = new Promise((resolve) => child.on('exit', (code, signal) => { p.exited = { code, signal }; resolve(p.exited); }));
  return p;
}

// stackrace-server with its web pages on a free port; resolves once it prints where they are.
export async function startServer(bin, dataDir, extra = []) {
  const port = await freeUdpPort();
  const webPort = await freeTcpPort();
  const server = run(bin, ['--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, '--web-port',
                           String(webPort), '--web-bind', '127.0.0.1', '--log-level', 'warn', ...extra]);
  await waitFor('the server to start', () => {
    if (server.exited) fail(`the server exited: ${server.err}`);
    return /web pages on http:/.test(server.out);
  }, 60000);
  return { server, port, webPort, url: `http://127.0.0.1:${webPort}/` };
}

export async function stop(p) {
  if (!p || p.exited) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 15000);
  await p.done;
  clearTimeout(timer);
}

// Headless Chromium over the DevTools protocol on a pipe (fd 3: our commands, fd 4: its answers, each message a JSON
// text ended by NUL).
export class Browser {
  static async launch(chromium = process.env.STACKRACE_CHROMIUM || 'chromium') {
    const profile = tempDir('chromium');
    const child = spawn(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions',
      '--disable-default-apps', '--mute-audio', '--hide-scrollbars', `--user-data-dir=${profile}`,
      '--remote-debugging-pipe', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    const b = new Browser(child, profile);
    await b.send('Target.setDiscoverTargets', { discover: true });
    return b;
  }

  constructor(child, profile) {
    this.child = child;
    this.profile = profile;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    this.stderr = '';
    child.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-20000); });
    let buffer = '';
    child.stdio[4].on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id !== undefined) {
          const p = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (p) message.error ? p.reject(new Error(`${p.method}: ${message.error.message}`)) : p.resolve(message.result);
        } else {
          for (const l of this.listeners) l(message);
        }
      }
    });
    this.exited = new Promise((resolve) => child.on('exit', resolve));
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      // A command Chromium never answers fails the test rather than hanging it.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer from Chromium in 60 s`));
      }, 60000);
      const done = (f) => (v) => { clearTimeout(timer); f(v); };
      this.pending.set(id, { resolve: done(resolve), reject: done(reject), method });
      this.child.stdio[3].write(JSON.stringify(message) + '\0');
    });
  }

  // A new tab at `url`, with its console, exceptions, log entries (CSP violations are there) and failed requests kept.
  async open(url, { width = 1280, height = 900 } = {}) {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, sessionId, targetId);
    this.listeners.push((m) => { if (m.sessionId === sessionId) page.on(m); });
    await page.send('Runtime.enable');
    await page.send('Log.enable');
    await page.send('Page.enable');
    await page.send('Network.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    if (url) await page.goto(url);
    return page;
  }

  async close() {
    try {
      await Promise.race([this.send('Browser.close'), new Promise((r) => setTimeout(r, 5000))]);
    } catch { /* already gone */ }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true });
  }
}

export class Page {
  constructor(browser, sessionId, targetId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.targetId = targetId;
    this.console = [];     // [type, text]
    this.exceptions = [];  // texts
    this.logs = [];        // Log.entryAdded: {source, level, text}
    this.failed = [];      // requests that failed or were blocked: url
    this.requests = [];    // {url, status, bytes}
    this.loaded = 0;
  }

  send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }

  on(m) {
    const p = m.params;
    if (m.method === 'Runtime.consoleAPICalled') {
      this.console.push([p.type, p.args.map((a) => a.value ?? a.description ?? '').join(' ')]);
    } else if (m.method === 'Runtime.exceptionThrown') {
      this.exceptions.push(p.exceptionDetails.exception?.description ?? p.exceptionDetails.text);
    } else if (m.method === 'Log.entryAdded') {
      this.logs.push(p.entry);
    } else if (m.method === 'Network.loadingFailed') {
      this.failed.push(`${this.urls?.get(p.requestId) ?? p.requestId}: ${p.errorText}${p.blockedReason ? ` (${p.blockedReason})` : ''}`);
    } else if (m.method === 'Network.requestWillBeSent') {
      (this.urls ??= new Map()).set(p.requestId, p.request.url);
    } else if (m.method === 'Network.responseReceived') {
      this.requests.push({ id: p.requestId, url: p.response.url, status: p.response.status, bytes: 0 });
    } else if (m.method === 'Network.loadingFinished') {
      const r = this.requests.find((q) => q.id === p.requestId);
      if (r) r.bytes = p.encodedDataLength;
    } else if (m.method === 'Page.loadEventFired') {
      this.loaded += 1;
    }
  }

  async goto(url) {
    const loads = this.loaded;
    await this.send('Page.navigate', { url });
    await waitFor(`${url} to load`, () => this.loaded > loads, 60000);
  }

  // The value of a JavaScript expression in the page (promises awaited).
  async eval(expression) {
    const r = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) fail(`evaluating ${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  }

  async waitFor(what, expression, timeoutMs = 60000) {
    return waitFor(what, () => this.eval(expression), timeoutMs);
  }

  async screenshot(path) {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, Buffer.from(data, 'base64'));
    console.log(`screenshot: ${path}`);
  }

  // Problems the page reported: exceptions, console errors, CSP violations and other log errors.
  problems() {
    return [...this.exceptions.map((e) => `exception: ${e}`),
            ...this.console.filter(([t]) => t === 'error').map(([, text]) => `console: ${text}`),
            ...this.logs.filter((e) => e.level === 'error').map((e) => `${e.source}: ${e.text}`)];
  }
}
