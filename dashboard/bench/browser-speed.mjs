#!/usr/bin/env node
/**
 * The dashboard's speed in a real browser (Debian's Chromium) against a real local Folio (the built
 * server on a fresh SQLite data directory):
 *
 * 1. Sign-in to the pages list: from the "Sign in" click to the pages table on screen, measured in the
 *    page (a capture listener stamps the click, a MutationObserver and the next animation frame stamp the
 *    table), over RUNS runs with a cold HTTP cache (a fresh browser context each time) and a warm one
 *    (the same context, signed out and in again after a reload). Target: < 1 s.
 * 2. A page of 100 entries (6 fields each, made through the API): navigation to every form on screen,
 *    then typing latency. Latency is what INP measures, the Event Timing API's `PerformanceEventTiming`
 *    duration (input to the next paint), grouped per keystroke (interactionId) and its longest event
 *    kept. Chromium reports only events of 16 ms or more (the API's floor), so a keystroke with no
 *    entry counts as 16 ms, an upper bound; a second, in-page measure (keydown's timeStamp to the frame
 *    after the next animation frame) gives the full distribution. Target: < 50 ms.
 *
 * 3. `--long-list` (alone): one entry holding a list of 200 items and 30 blocks (issue 36): navigation to
 *    every item and block on screen (target < 1.5 s), typing in the last item (Event Timing p95, target
 *    < 50 ms, with the main thread's CPU per keystroke, the field's deferred hand-over to the list
 *    included), and moving it with Alt+↑ (keydown to the frame after the move, target < 100 ms; its
 *    Event Timing apart from the typing's). Results in bench/results/long-list.json; `RESULT=name.json`
 *    writes them under another name (repeated runs).
 *
 * The machine's load (/proc/loadavg, cores) is written beside the figures, which go to
 * bench/results/browser-speed.json, with the main thread's CPU time (from a Chromium trace), which the
 * load inflates far less than wall-clock time. `--profile` keeps the traces of the render and the typing,
 * with JavaScript samples (bench/results/*-trace.json, not committed) to open in DevTools.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const RUNS = Number(process.env.RUNS ?? 20);
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 50);
const ENTRIES = 100;
const PASSWORD = 'correct horse battery staple';
const dashboard = new URL('..', import.meta.url).pathname;
const root = join(dashboard, '..');
const profile = process.argv.includes('--profile');

const load = () => readFileSync('/proc/loadavg', 'utf8').trim();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const stats = (list) => ({
  runs: list.length,
  medianMs: Math.round(pct(list, 50) * 10) / 10,
  p95Ms: Math.round(pct(list, 95) * 10) / 10,
  maxMs: Math.round(Math.max(...list) * 10) / 10,
});

// --- a local Folio -------------------------------------------------------------------------------
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startFolio() {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-dashboard-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'server/dist/server.js')], {
    cwd: dataDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CMS_DATA_DIR: dataDir,
      // DASHBOARD_DIST: another build (a baseline's) to compare in the same conditions.
      CMS_DASHBOARD_DIR: process.env.DASHBOARD_DIST ?? join(dashboard, 'dist'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Folio exited (${code}):\n${output}`)));
  });
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function api(url, method, path, { token, key, project, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (key) headers['x-cms-key'] = key;
  if (project) headers['x-cms-project-id'] = project;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text).data;
}

/** A project with ten small pages and one of 100 entries, every field filled in. */
async function seed(url) {
  const email = `bench-${Date.now()}@example.com`;
  const created = await api(url, 'POST', '/v1/projects', {
    body: { name: 'Bench', admin: { email, password: PASSWORD } },
  });
  const site = { projectId: created.project.id, key: created.project.apiKey, email };
  const { token } = await api(url, 'POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
  for (let i = 0; i < 10; i++) {
    await api(url, 'POST', '/v1/definitions/sync', {
      key: site.key,
      body: { pageId: `/page-${i}`, components: [{ componentId: 'Text', instanceKey: 'text', fields: [] }] },
    });
  }
  const fields = [
    { key: 'title', type: 'text' },
    { key: 'subtitle', type: 'text' },
    { key: 'count', type: 'number' },
    { key: 'featured', type: 'boolean' },
    { key: 'link', type: 'url' },
    { key: 'data', type: 'json' },
  ];
  const components = Array.from({ length: ENTRIES }, (_, i) => ({
    componentId: 'Section',
    instanceKey: `section-${String(i).padStart(3, '0')}`,
    fields,
  }));
  await api(url, 'POST', '/v1/definitions/sync', { key: site.key, body: { pageId: '/big', components } });
  const entries = await api(url, 'GET', '/v1/content/%2Fbig', { token, key: site.key });
  for (const [i, entry] of entries.entries()) {
    await api(url, 'PATCH', `/v1/content/${entry.id}`, {
      token,
      key: site.key,
      body: {
        fields: {
          title: `Section ${i}`,
          subtitle: `A subtitle of section ${i}, long enough to look like one`,
          count: i,
          featured: i % 2 === 0,
          link: `https://example.com/${i}`,
          data: { order: i, tags: ['a', 'b'] },
        },
      },
    });
  }
  return site;
}

// --- 1. sign-in to the pages list ----------------------------------------------------------------
/** In the page: stamp the click on "Sign in" and the first frame with the pages table. */
const STAMPS = () => {
  window.__bench = {};
  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof Element && event.target.closest('button')?.textContent === 'Sign in') {
        window.__bench.click = performance.now();
        const seen = () => {
          const heading = [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Pages');
          return heading && document.querySelector('main table tbody tr');
        };
        const observer = new MutationObserver(() => {
          if (!seen()) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            window.__bench.shown = performance.now();
          });
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }
    },
    true,
  );
};

async function signInOnce(page, email) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForFunction(() => window.__bench?.shown !== undefined);
  return page.evaluate(() => window.__bench.shown - window.__bench.click);
}

async function benchSignIn(browser, url, site) {
  const cold = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(STAMPS);
    await page.goto(`${url}/admin/`);
    cold.push(await signInOnce(page, site.email));
    await context.close();
  }
  const warm = [];
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(STAMPS);
  await page.goto(`${url}/admin/`);
  await signInOnce(page, site.email); // fills the HTTP cache
  for (let i = 0; i < RUNS; i++) {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    warm.push(await signInOnce(page, site.email));
  }
  await context.close();
  return { cold: stats(cold), warm: stats(warm) };
}

/**
 * Runs `during` under a Chromium performance trace (CDP Tracing) and adds to its result the CPU time
 * the page's main thread spent meanwhile (the `tdur` of its top-level tasks): unlike wall-clock time it
 * hardly grows when other processes share the cores, so it shows the work itself on a loaded machine.
 * With --profile the trace is kept as bench/results/<name> (open it in DevTools' Performance panel).
 */
async function traced(context, page, name, during) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Tracing.start', {
    categories: `toplevel,devtools.timeline,disabled-by-default-devtools.timeline${profile ? ',v8.execute,disabled-by-default-v8.cpu_profiler' : ''}`,
    transferMode: 'ReturnAsStream',
  });
  const result = await during();
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let trace = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    trace += chunk.data;
    if (chunk.eof) break;
  }
  await cdp.detach();
  if (profile) writeFileSync(join(dashboard, 'bench/results', name), trace);
  return { result, mainThreadCpuMs: mainThreadCpu(JSON.parse(trace)) };
}

/** CPU ms of the busiest renderer main thread's top-level tasks in a trace. */
function mainThreadCpu(trace) {
  const events = trace.traceEvents ?? trace;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const perThread = new Map();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'RunTask' || !mains.has(thread) || !e.tdur) continue;
    perThread.set(thread, (perThread.get(thread) ?? 0) + e.tdur / 1000);
  }
  return Math.round(Math.max(0, ...perThread.values()));
}

// --- 2. a page of 100 entries --------------------------------------------------------------------
/** In the page: every keystroke's Event Timing entries, and keydown → the frame after the next paint. */
const LATENCY = () => {
  window.__events = [];
  window.__frames = [];
  window.__moves = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.interactionId) window.__events.push({ id: e.interactionId, name: e.name, duration: e.duration });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  document.addEventListener(
    'keydown',
    (event) => {
      // The typed characters (not the End that places the caret), and Alt+↑/↓ that move a list item.
      const move = event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown');
      if (event.key.length !== 1 && !move) return;
      requestAnimationFrame(() =>
        setTimeout(
          () => (move ? window.__moves : window.__frames).push(performance.now() - event.timeStamp),
          0,
        ),
      );
    },
    true,
  );
};

async function benchBigPage(browser, url, site) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(LATENCY);
  const address = `${url}/admin/p/${site.projectId}/pages/${encodeURIComponent('/big')}`;
  await page.goto(address);
  await page.getByLabel('Email').fill(site.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const allForms = () =>
    document.querySelectorAll('main section[aria-labelledby]').length >= 100 && performance.now();
  await page.waitForFunction(allForms, undefined, { polling: 'raf', timeout: 60_000 });

  // Render: a reload while signed in (the session is kept), navigation start → every form on screen.
  const render = [];
  const renderOnce = async () => {
    await page.reload();
    const handle = await page.waitForFunction(allForms, undefined, { polling: 'raf', timeout: 60_000 });
    return handle.jsonValue();
  };
  const firstRender = await traced(context, page, 'render-trace.json', renderOnce);
  render.push(firstRender.result);
  for (let i = 1; i < Math.min(RUNS, 10); i++) render.push(await renderOnce());
  await page.evaluate(() => {
    window.__events = [];
    window.__frames = [];
  });

  // Typing: KEYSTROKES keys spread over five entries' title fields (the first key of each makes the
  // page mark it unsaved, which re-renders the page), about 8 keys a second like a fast typist.
  const fields = await typingTargets(page);
  const typing = await traced(context, page, 'typing-trace.json', () => typeKeys(page, fields));
  const typed = typing.result;
  await sleep(500);
  const { events, frames } = await page.evaluate(() => ({
    events: window.__events,
    frames: window.__frames,
  }));
  await context.close();

  // One figure per keystroke: the longest event of its interaction (keydown, keypress, input, keyup).
  const perInteraction = new Map();
  for (const e of events) perInteraction.set(e.id, Math.max(perInteraction.get(e.id) ?? 0, e.duration));
  const keyInteractions = [...perInteraction.values()];
  const eventTiming = [...keyInteractions, ...Array(Math.max(0, typed - keyInteractions.length)).fill(16)];
  return {
    entries: ENTRIES,
    fieldsPerEntry: 6,
    renderAfterNavigation: { ...stats(render), mainThreadCpuMs: firstRender.mainThreadCpuMs },
    typing: {
      keystrokes: typed,
      eventTiming: {
        ...stats(eventTiming),
        keystrokesOver16Ms: keyInteractions.length,
        note: 'PerformanceEventTiming duration (what INP uses); keystrokes under the 16 ms floor counted as 16',
      },
      keydownToNextFrame: stats(frames),
      mainThreadCpuMsPerKeystroke: Math.round((typing.mainThreadCpuMs / typed) * 10) / 10,
    },
  };
}

/** The title fields typed into: found before the clock starts (finding them by role is the harness's work). */
async function typingTargets(page) {
  const handles = [];
  for (const n of [3, 25, 50, 75, 97]) {
    const field = page
      .getByRole('region', { name: `section-${String(n).padStart(3, '0')}`, exact: true })
      .getByLabel('title', { exact: true });
    handles.push(await field.elementHandle());
  }
  return handles;
}

async function typeKeys(page, fields) {
  const perField = Math.ceil(KEYSTROKES / fields.length);
  let typed = 0;
  for (const field of fields) {
    await field.evaluate((el) => el.focus());
    await page.keyboard.press('End');
    await sleep(200);
    for (let k = 0; k < perField && typed < KEYSTROKES; k++, typed++) {
      await page.keyboard.press(String.fromCharCode(97 + (k % 26)));
      await sleep(120);
    }
  }
  return typed;
}

// --- 3. a list of 200 items and 30 blocks -----------------------------------------------------------
const ITEMS = 200;
const BLOCKS = 30;

async function seedLongList(url) {
  const email = `bench-long-${Date.now()}@example.com`;
  const created = await api(url, 'POST', '/v1/projects', {
    body: { name: 'Bench', admin: { email, password: PASSWORD } },
  });
  const site = { projectId: created.project.id, key: created.project.apiKey, email };
  const { token } = await api(url, 'POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
  const text = (key) => ({ key, type: 'text' });
  const component = {
    componentId: 'Long',
    instanceKey: 'long',
    fields: [
      { key: 'items', type: 'list', fields: [text('title'), text('body'), { key: 'tint', type: 'color' }] },
      {
        key: 'sections',
        type: 'blocks',
        blocks: [
          { componentId: 'Quote', fields: [text('text'), text('by')] },
          { componentId: 'Card', fields: [text('title'), { key: 'link', type: 'link' }] },
        ],
      },
    ],
  };
  await api(url, 'POST', '/v1/definitions/sync', {
    key: site.key,
    body: { pageId: '/long', components: [component] },
  });
  const [entry] = await api(url, 'GET', '/v1/content/%2Flong', { token, key: site.key });
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    title: `Item ${i}`,
    body: `The body of item ${i}, long enough to look like one`,
    tint: '#336699',
  }));
  const sections = Array.from({ length: BLOCKS }, (_, i) =>
    i % 2 === 0
      ? { _type: 'Quote', text: `Quote ${i}`, by: 'Ada' }
      : { _type: 'Card', title: `Card ${i}`, link: { href: `https://example.com/${i}` } },
  );
  await api(url, 'PATCH', `/v1/content/${entry.id}`, {
    token,
    key: site.key,
    body: { fields: { items, sections } },
  });
  return site;
}

async function benchLongList(browser, url, site) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(LATENCY);
  await page.goto(`${url}/admin/p/${site.projectId}/pages/${encodeURIComponent('/long')}`);
  await page.getByLabel('Email').fill(site.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const everyItem = (n) =>
    document.querySelectorAll('main [role=group][aria-label]').length >= n && performance.now();
  const all = ITEMS + BLOCKS;
  await page.waitForFunction(everyItem, all, { polling: 'raf', timeout: 60_000 });
  const render = [];
  for (let i = 0; i < 5; i++) {
    await page.reload();
    render.push(
      await (await page.waitForFunction(everyItem, all, { polling: 'raf', timeout: 60_000 })).jsonValue(),
    );
  }
  // The last item opened, its title typed into, then moved up with Alt+↑ a few times.
  const last = page.getByRole('group', { name: `Item ${ITEMS}: Item ${ITEMS - 1}` });
  await last.getByRole('button', { name: `Item ${ITEMS}: Item ${ITEMS - 1}`, exact: true }).click();
  const title = await last.getByRole('textbox', { name: 'title' }).elementHandle();
  await page.evaluate(() => {
    window.__events = [];
    window.__frames = [];
    window.__moves = [];
  });
  const typing = await traced(context, page, 'long-list-typing-trace.json', () => typeKeys(page, [title]));
  const typed = typing.result;
  // The typing's interactions, apart from the moves' (a field hands its value to the list 100 ms after
  // the last key, so wait for that before moving).
  await sleep(500);
  const typingEvents = await page.evaluate(() => window.__events.splice(0));
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Alt+ArrowUp');
    await sleep(200);
  }
  await sleep(500);
  const { events, frames, moves } = await page.evaluate(() => ({
    events: window.__events,
    frames: window.__frames,
    moves: window.__moves,
  }));
  await context.close();
  /** One figure per interaction (its longest event); those under Chromium's 16 ms floor count as 16. */
  const perKey = (list, count) => {
    const perInteraction = new Map();
    for (const e of list) perInteraction.set(e.id, Math.max(perInteraction.get(e.id) ?? 0, e.duration));
    const over = [...perInteraction.values()];
    return [...over, ...Array(Math.max(0, count - over.length)).fill(16)];
  };
  return {
    items: ITEMS,
    blocks: BLOCKS,
    renderAfterNavigation: stats(render),
    typingInLastItem: {
      keystrokes: typed,
      eventTiming: stats(perKey(typingEvents, typed)),
      keydownToNextFrame: stats(frames),
      mainThreadCpuMsPerKeystroke: Math.round((typing.mainThreadCpuMs / typed) * 10) / 10,
    },
    moveByKeyboard: {
      moves: moves.length,
      keydownToNextFrame: stats(moves),
      eventTiming: stats(perKey(events, moves.length)),
    },
  };
}

// --- run -----------------------------------------------------------------------------------------
const folio = await startFolio();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
try {
  if (process.argv.includes('--long-list')) {
    const loadBefore = load();
    const site = await seedLongList(folio.url);
    const long = await benchLongList(browser, folio.url, site);
    const result = {
      measuredAt: new Date().toISOString(),
      machine: { cores: cpus().length, loadavgBefore: loadBefore, loadavgAfter: load() },
      browser: `${browser.browserType().name()} ${browser.version()} (headless)`,
      targets: { renderMs: 1500, typingLatencyMs: 50, moveMs: 100 },
      ...long,
    };
    writeFileSync(
      join(dashboard, 'bench/results', process.env.RESULT ?? 'long-list.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    process.exit(0);
  }
  const loadBefore = load();
  const site = await seed(folio.url);
  const signIn = await benchSignIn(browser, folio.url, site);
  const bigPage = await benchBigPage(browser, folio.url, site);
  const result = {
    measuredAt: new Date().toISOString(),
    machine: { cores: cpus().length, loadavgBefore: loadBefore, loadavgAfter: load() },
    browser: `${browser.browserType().name()} ${browser.version()} (headless)`,
    targets: { signInMs: 1000, typingLatencyMs: 50 },
    signInToPagesList: signIn,
    pageOf100Entries: bigPage,
  };
  writeFileSync(join(dashboard, 'bench/results/browser-speed.json'), `${JSON.stringify(result, null, 2)}\n`);
  const typing = bigPage.typing;
  process.stdout.write(
    `sign-in to the pages list: cold median ${signIn.cold.medianMs} ms, p95 ${signIn.cold.p95Ms} ms; ` +
      `warm median ${signIn.warm.medianMs} ms, p95 ${signIn.warm.p95Ms} ms (target < 1000)\n` +
      `page of ${ENTRIES} entries: rendered after navigation in median ${bigPage.renderAfterNavigation.medianMs} ms, ` +
      `p95 ${bigPage.renderAfterNavigation.p95Ms} ms\n` +
      `typing latency (Event Timing, ${typing.keystrokes} keys): median ${typing.eventTiming.medianMs} ms, ` +
      `p95 ${typing.eventTiming.p95Ms} ms, max ${typing.eventTiming.maxMs} ms; keydown to next frame: median ` +
      `${typing.keydownToNextFrame.medianMs} ms, p95 ${typing.keydownToNextFrame.p95Ms} ms (target < 50)\n` +
      `main-thread CPU: ${bigPage.renderAfterNavigation.mainThreadCpuMs} ms to render the page, ` +
      `${typing.mainThreadCpuMsPerKeystroke} ms a keystroke\n` +
      `load: ${result.machine.loadavgBefore} → ${result.machine.loadavgAfter} on ${result.machine.cores} cores\n`,
  );
  // Reported, not enforced: wall-clock figures follow the machine's load (noted above), which on a
  // shared machine can miss a target that the CPU time shows the work itself meets.
  const missed = [
    signIn.cold.medianMs >= 1000 && 'sign-in (cold)',
    signIn.warm.medianMs >= 1000 && 'sign-in (warm)',
    typing.eventTiming.p95Ms >= 50 && 'typing latency p95',
  ].filter(Boolean);
  if (missed.length > 0) process.stdout.write(`over target at this load: ${missed.join(', ')}\n`);
} finally {
  await browser.close();
  await folio.stop();
}
