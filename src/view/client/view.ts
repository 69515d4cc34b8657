/**
 * The live view in the browser: follows the server's event stream (panes, their screens and
 * output, the audit trail, the calls waiting for a person) and renders each pane in an xterm.js
 * terminal with input disabled. The only things it sends are a person's answers to waiting calls
 * and the pause (approvals.ts): nothing reaches a pane.
 */
import { Terminal } from '@xterm/xterm';
import type { Screen, ViewPane } from '../wire.js';
import { showApprovals, showPaused } from './approvals.js';

interface AuditEntry {
  readonly id: number;
  readonly time: string;
  readonly client: { readonly name?: string; readonly session?: string };
  readonly tool: string;
  readonly arguments: unknown;
  readonly targets: readonly string[];
  readonly outcome: 'ok' | 'error';
  readonly error?: string;
  readonly ms: number;
  readonly batch?: { readonly id: number; readonly tool: string; readonly index: number };
  readonly approval?: {
    readonly answer: string;
    readonly channel?: string;
    readonly reason?: string;
    readonly rule?: string;
    readonly paused?: true;
  };
}

/** Entries the trail keeps on the page; older ones are dropped from the bottom. */
const MAX_AUDIT_ROWS = 500;

const panesEl = document.getElementById('panes')!;
const auditEl = document.getElementById('audit')!;
const statusEl = document.getElementById('status')!;
const tiles = new Map<string, { readonly el: HTMLElement; readonly term: Terminal; pane: ViewPane }>();
let omittedEl: HTMLElement | undefined;

function tile(pane: ViewPane) {
  const el = document.createElement('div');
  el.className = 'pane';
  el.dataset.key = pane.key;
  const title = document.createElement('h2');
  const box = document.createElement('div');
  box.className = 'term';
  el.append(title, box);
  panesEl.append(el);
  // Read-only: no stdin, and nothing listens to what the terminal would send.
  const term = new Terminal({
    cols: pane.width,
    rows: pane.height,
    disableStdin: true,
    cursorBlink: false,
    scrollback: 1000,
    fontSize: 13,
  });
  term.open(box);
  const entry = { el, term, pane };
  label(entry);
  return entry;
}

function label(entry: { readonly el: HTMLElement; pane: ViewPane }): void {
  const { pane } = entry;
  const title = entry.el.querySelector('h2')!;
  title.textContent = `${pane.host}:${pane.session}:${pane.window} ${pane.id} `;
  const cmd = document.createElement('span');
  cmd.className = 'cmd';
  cmd.textContent = `${pane.command} ${pane.width}x${pane.height}`;
  title.append(cmd);
}

function showPanes(panes: readonly ViewPane[], omitted: number): void {
  const keep = new Set(panes.map((pane) => pane.key));
  for (const [key, entry] of tiles) {
    if (keep.has(key)) continue;
    entry.term.dispose();
    entry.el.remove();
    tiles.delete(key);
  }
  for (const pane of panes) {
    const entry = tiles.get(pane.key);
    if (!entry) tiles.set(pane.key, tile(pane));
    else {
      entry.pane = pane;
      label(entry);
    }
  }
  omittedEl?.remove();
  omittedEl = undefined;
  if (omitted > 0) {
    omittedEl = document.createElement('p');
    omittedEl.id = 'omitted';
    omittedEl.textContent = `${omitted} more pane${omitted === 1 ? '' : 's'} not shown`;
    panesEl.append(omittedEl);
  }
}

function showScreen(screen: Screen): void {
  const entry = tiles.get(screen.key);
  if (!entry) return;
  const { term } = entry;
  term.reset();
  term.resize(screen.width, screen.height);
  term.write(screen.paint);
}

function addAudit(entry: AuditEntry): void {
  const li = document.createElement('li');
  li.dataset.id = String(entry.id);
  li.className = [entry.batch ? 'item' : '', entry.approval ? 'approval' : ''].filter(Boolean).join(' ');
  const head = document.createElement('div');
  head.className = 'head';
  const span = (cls: string, text: string) => {
    const el = document.createElement('span');
    el.className = cls;
    el.textContent = text;
    return el;
  };
  const approval = entry.approval;
  head.append(
    span('time', entry.time.slice(11, 23)),
    span('tool', entry.batch ? `${entry.batch.tool}[${entry.batch.index}] ${entry.tool}` : entry.tool),
    span(entry.outcome, approval ? approval.answer : entry.outcome),
    span('ms', approval ? `waited ${Math.round(entry.ms / 100) / 10} s` : `${entry.ms} ms`),
  );
  li.append(head);
  if (approval) {
    const how = [
      approval.paused ? 'held by the pause' : `rule ${approval.rule}`,
      approval.channel ? `answered in the ${approval.channel}` : '',
      approval.reason ? `reason: ${approval.reason}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    li.append(span('meta', how));
  }
  const who = [entry.client.name, entry.client.session ? `session ${entry.client.session.slice(0, 8)}` : ''].filter(Boolean).join(', ');
  li.append(span('meta', `${entry.targets.join(' ') || 'no target'}${who ? ` · ${who}` : ''}`));
  const args = JSON.stringify(entry.arguments);
  if (args && args !== '{}') li.append(span('args', args.length > 300 ? `${args.slice(0, 300)}...` : args));
  if (entry.error) li.append(span('msg', entry.error));
  for (const el of li.querySelectorAll('span.meta, span.args, span.msg')) (el as HTMLElement).style.display = 'block';
  auditEl.prepend(li);
  while (auditEl.children.length > MAX_AUDIT_ROWS) auditEl.lastElementChild!.remove();
}

const events = new EventSource('/events');
const on = <T>(name: string, handle: (data: T) => void) =>
  events.addEventListener(name, (event) => handle(JSON.parse((event as MessageEvent<string>).data) as T));

on<{ readOnly: boolean }>('hello', () => {
  // A reconnect starts over: the server sends the trail and every screen again.
  statusEl.textContent = 'live';
  auditEl.replaceChildren();
  showPanes([], 0);
});
on<{ panes: ViewPane[]; omitted: number }>('panes', ({ panes, omitted }) => showPanes(panes, omitted));
on<Screen>('screen', showScreen);
on<{ key: string; data: string }>('output', ({ key, data }) => tiles.get(key)?.term.write(data));
on<AuditEntry>('audit', addAudit);
on<{ paused: boolean; questions: never[] }>('approvals', ({ paused, questions }) => {
  showPaused(paused);
  showApprovals(questions);
});
on<{ questions: never[] }>('questions', ({ questions }) => showApprovals(questions));
on<{ paused: boolean }>('paused', ({ paused }) => showPaused(paused));
events.onerror = () => {
  statusEl.textContent = events.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting';
};
