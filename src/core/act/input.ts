/**
 * Typing into panes: turning "keys" into tmux send-keys steps that arrive exactly as meant, the
 * safety checks every input passes before anything is typed, and pasting through a private buffer.
 *
 * Text is always sent with `send-keys -l --`, so tmux never reads it as key names or flags. Key
 * names are only used when the caller says so, and only names tmux really knows are accepted.
 */
import { randomBytes } from 'node:crypto';
import { invalidArgument, refused } from '../failure.js';
import { type Engine, perServer } from '../engine.js';
import type { InputPaneRecord } from '../read/records.js';
import { markInput } from '../watch/pane-streams.js';
import { PANE_ID } from '../../tmux/ids.js';
import { listPanes } from '../read/listings.js';
import { guardCaller } from '../targets/caller-guard.js';
import { getWindow, resolveInputPane } from '../targets/resolve.js';

/** Input to each pane, chained so two calls' steps never interleave. */
const inputQueues = perServer(() => new Map<string, Promise<unknown>>());

/** One tmux command's worth of input. */
export type InputStep =
  /** Characters typed as they are (`send-keys -l`). Never contains a newline. */
  | { readonly kind: 'text'; readonly text: string }
  /** tmux key names (`send-keys`), like Enter or C-c. */
  | { readonly kind: 'keys'; readonly names: readonly string[] }
  /**
   * ASCII bytes by value (`send-keys -H`). Used for `;` at the end of a piece of text, which tmux
   * reads as a command separator when a command comes from argv instead of control mode.
   */
  | { readonly kind: 'hex'; readonly bytes: readonly number[] };

/** Most UTF-8 bytes of text one call may type or paste; more is a mistake or a flood. */
export const MAX_INPUT_BYTES = 1_000_000;
/** Longest piece of text sent in one tmux command (far below argv and control-line limits). */
const CHUNK_CHARS = 8192;

// Key names tmux knows (key-string.c), compared case-insensitively as tmux does. Mouse keys are left
// out: sending them to a pane means nothing useful.
const KEY_NAMES = new Set(
  [
    ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
    'IC',
    'Insert',
    'DC',
    'Delete',
    'Home',
    'End',
    'NPage',
    'PageDown',
    'PgDn',
    'PPage',
    'PageUp',
    'PgUp',
    'Tab',
    'BTab',
    'Space',
    'BSpace',
    'Enter',
    'Escape',
    'Up',
    'Down',
    'Left',
    'Right',
    'KP/',
    'KP*',
    'KP-',
    'KP7',
    'KP8',
    'KP9',
    'KP+',
    'KP4',
    'KP5',
    'KP6',
    'KP1',
    'KP2',
    'KP3',
    'KPEnter',
    'KP0',
    'KP.',
  ].map((name) => name.toLowerCase()),
);
const MODIFIERS = /^(?:[CcMmSs]-|\^)*/;

/**
 * True when `name` is a key tmux will press rather than type: a known key name or a single
 * printable character, optionally after C-, M-, S- or ^ modifiers (C-c, M-Left, S-F5, ^a).
 */
export function isKeyName(name: string): boolean {
  const base = name.slice(MODIFIERS.exec(name)![0].length);
  if (base === '') return name.length === 1; // a lone "^"
  if (KEY_NAMES.has(base.toLowerCase())) return true;
  const chars = [...base];
  return chars.length === 1 && !/[\p{Cc}\p{Z}]/u.test(base);
}

export interface KeysRequest {
  readonly keys: readonly string[];
  /** Type each string as text (true), or press strings that are tmux key names as keys and type the rest (false). */
  readonly literal: boolean;
  /** Press Enter after everything else. */
  readonly enter: boolean;
}

/**
 * Turns keys into send steps, or throws a clear error without touching tmux. Literal text with
 * newlines becomes lines with an Enter key between them, so a shell sees typed lines (`\r\n`
 * counts as one newline).
 */
export function planKeys(request: KeysRequest, field = 'keys'): InputStep[] {
  const bytes = request.keys.reduce((sum, key) => sum + Buffer.byteLength(key, 'utf8'), 0);
  if (bytes > MAX_INPUT_BYTES)
    throw invalidArgument(`${field} holds ${bytes} bytes of text; at most ${MAX_INPUT_BYTES} can be sent in one call`);
  const steps = request.literal ? textPlan(request.keys, field) : keyPlan(request.keys, field);
  if (request.enter) pushKeys(steps, 'Enter');
  return steps;
}

function textPlan(keys: readonly string[], field: string): InputStep[] {
  return mixedPlan(
    keys.map((key) => ({ key, asKey: false })),
    field,
  );
}

/**
 * With literal false, a string that is exactly a tmux key name is pressed as that key, and any
 * other string is typed as text, as tmux itself would; nothing becomes a separator or a flag.
 */
function keyPlan(keys: readonly string[], field: string): InputStep[] {
  return mixedPlan(
    keys.map((key, index) => {
      // Over a spawned tmux a trailing ";" ends the command, so a key like M-; cannot be pressed safely.
      if (key !== ';' && key.endsWith(';') && isKeyName(key)) {
        throw invalidArgument(
          `${field}[${index}] ${JSON.stringify(key)}: a modifier with ";" cannot be sent; send ";" as literal text instead`,
        );
      }
      return { key, asKey: key !== ';' && isKeyName(key) };
    }),
    field,
  );
}

function mixedPlan(items: ReadonlyArray<{ key: string; asKey: boolean }>, field: string): InputStep[] {
  const steps: InputStep[] = [];
  // Strings typed one after another make one line of text until a newline or a key: fewer tmux commands.
  let line = '';
  items.forEach(({ key, asKey }, index) => {
    if (key.includes('\0')) throw invalidArgument(`${field}[${index}] contains a NUL character, which a terminal cannot receive`);
    if (asKey) {
      steps.push(...textSteps(line));
      line = '';
      pushKeys(steps, key);
      return;
    }
    key.split(/\r?\n/).forEach((piece, pieceIndex) => {
      if (pieceIndex > 0) {
        steps.push(...textSteps(line));
        pushKeys(steps, 'Enter');
        line = '';
      }
      line += piece;
    });
  });
  steps.push(...textSteps(line));
  return steps;
}

function pushKeys(steps: InputStep[], name: string): void {
  const last = steps[steps.length - 1];
  if (last?.kind === 'keys') steps[steps.length - 1] = { kind: 'keys', names: [...last.names, name] };
  else steps.push({ kind: 'keys', names: [name] });
}

/** A line of text as chunks, each ending in something other than `;` (trailing ones go by value). */
function textSteps(line: string): InputStep[] {
  const steps: InputStep[] = [];
  const chars = [...line]; // code points, so a chunk never splits a surrogate pair
  for (let start = 0; start < chars.length; start += CHUNK_CHARS) {
    let chunk = chars.slice(start, start + CHUNK_CHARS).join('');
    let semicolons = 0;
    while (chunk.endsWith(';')) {
      chunk = chunk.slice(0, -1);
      semicolons++;
    }
    if (chunk !== '') steps.push({ kind: 'text', text: chunk });
    if (semicolons > 0) steps.push({ kind: 'hex', bytes: Array(semicolons).fill(0x3b) });
  }
  return steps;
}

/** Sends the steps in order, one tmux command each (pipelined: tmux runs them in the order sent). */
export async function sendSteps(engine: Engine, paneId: string, steps: readonly InputStep[]): Promise<void> {
  await engine.runInOrder(
    steps.map((step) =>
      step.kind === 'text'
        ? ['send-keys', '-l', '-t', paneId, '--', step.text]
        : step.kind === 'keys'
          ? ['send-keys', '-t', paneId, '--', ...step.names]
          : ['send-keys', '-H', '-t', paneId, ...step.bytes.map((b) => b.toString(16).padStart(2, '0'))],
    ),
  );
}

// ---- who receives input, and whether it may -------------------------------------------------------

export interface InputTarget {
  readonly pane: InputPaneRecord;
  /**
   * Every pane the input reaches: the pane itself first, then, when synchronize-panes is on, the
   * other synchronized panes of its window that tmux copies keys to (live, not in a mode, visible).
   */
  readonly receivers: readonly string[];
}

export interface PreflightOptions {
  /** Allows typing into the pane this server runs in. It does not override any other refusal. */
  readonly force?: boolean;
  /** Words for errors: "send keys", "paste". */
  readonly action: string;
  /** Argument name for errors. */
  readonly field?: string;
  /** Whether synchronize-panes copies this input to other panes (send-keys: yes; paste-buffer: no). */
  readonly synchronized?: boolean;
}

/**
 * Resolves the pane and refuses, before anything is typed, input that cannot land where meant: a
 * dead pane, a pane showing a mode (copy mode swallows keys), or this server's own pane.
 */
export async function preflightInput(engine: Engine, paneInput: string, options: PreflightOptions): Promise<InputTarget> {
  const pane = await resolveInputPane(engine, paneInput, options.field ?? 'paneId');
  refuseUnready(pane, options.action);
  let receivers = [pane.id];
  if ((options.synchronized ?? true) && pane.isSynchronized) {
    const window = await getWindow(engine, pane.windowId);
    // tmux copies keys only to panes that show (a zoomed window shows just its active pane),
    // that run a program, and that are not in a mode.
    const others = (await listPanes(engine, { windowId: pane.windowId })).filter(
      (p) => p.id !== pane.id && p.isSynchronized && !p.isDead && p.modeCount === 0 && (!window.zoomed || p.id === window.activePaneId),
    );
    receivers = [pane.id, ...others.map((p) => p.id)];
  }
  await guardCaller(engine, receivers, options.action, options.force);
  return { pane, receivers };
}

function refuseUnready(pane: InputPaneRecord, action: string): void {
  if (pane.isDead) {
    throw refused(
      `refusing to ${action}: pane ${pane.id} is dead (its program exited${pane.deadStatus !== null ? ` with status ${pane.deadStatus}` : ''}); nothing was sent`,
      'Restart it with respawn_pane, or pick another pane with list_panes.',
    );
  }
  if (pane.modeCount > 0) {
    throw refused(
      `refusing to ${action}: pane ${pane.id} is in copy mode or another tmux mode, which would swallow the input; nothing was sent`,
      'Someone is probably scrolling back in it. Read it with capture_pane and try again once the mode has ended.',
    );
  }
}

// ---- serialising input per pane -------------------------------------------------------------------

/**
 * Runs `work` once earlier input to the same pane from this process has finished, so the steps of
 * two concurrent calls (text, Enter, text...) never interleave.
 */
export async function withPaneInput<T>(engine: Engine, paneId: string, work: () => Promise<T>): Promise<T> {
  const byPane = inputQueues(engine);
  const previous = byPane.get(paneId) ?? Promise.resolve();
  const current = previous.then(work, work);
  const settled = current.catch(() => {});
  byPane.set(paneId, settled);
  try {
    return await current;
  } finally {
    if (byPane.get(paneId) === settled) byPane.delete(paneId);
  }
}

// ---- send keys ------------------------------------------------------------------------------------

export interface SendKeysRequest extends KeysRequest {
  /** Pane id or pane ref. */
  readonly pane: string;
  readonly force?: boolean;
  /** Argument names for errors (a batch says `operations[2].keys`). */
  readonly fields?: { readonly pane?: string; readonly keys?: string };
}

export interface PreparedInput {
  readonly target: InputTarget;
  readonly steps: readonly InputStep[];
  /** The keys as given, with Enter appended when `enter` pressed it. */
  readonly keys: readonly string[];
}

/** Everything `send_keys` checks, with no effect on tmux: arguments, the pane, its state, the caller guard. */
export async function prepareKeys(engine: Engine, request: SendKeysRequest): Promise<PreparedInput> {
  const keysField = request.fields?.keys ?? 'keys';
  const steps = planKeys(request, keysField);
  if (steps.length === 0) throw invalidArgument(`${keysField} holds no text or keys and enter is false: there is nothing to send`);
  const target = await preflightInput(engine, request.pane, { action: 'send keys', force: request.force, field: request.fields?.pane });
  return { target, steps, keys: request.enter ? [...request.keys, 'Enter'] : [...request.keys] };
}

/** Checks, then types, holding the pane's input queue so nothing interleaves. */
export async function sendKeys(engine: Engine, request: SendKeysRequest): Promise<PreparedInput> {
  return checkedInput(
    engine,
    request.pane,
    () => prepareKeys(engine, request),
    (prepared) => prepared.target.pane.id,
    (prepared) =>
      withInputMark(
        engine,
        prepared.target,
        () => sendSteps(engine, prepared.target.pane.id, prepared.steps),
        pressesInterrupt(prepared.steps),
      ),
  );
}

/**
 * Runs `send` with every receiving pane's stream marked just before it, so a wait_for_text without
 * a cursor counts what the input makes the pane print as new, however fast it comes.
 */
export async function withInputMark<T>(engine: Engine, target: InputTarget, send: () => Promise<T>, interrupt = false): Promise<T> {
  const releases = await Promise.all(target.receivers.map((id) => markInput(engine, { id, sessionId: target.pane.sessionId }, interrupt)));
  try {
    return await send();
  } finally {
    for (const release of releases) release();
  }
}

/**
 * Runs `act` in the pane's input queue right after `check` passed there (earlier input may have
 * changed the pane). A pane named by a ref is checked once outside too, to find its queue; a pane
 * id with nothing queued ahead is not, as that check would be followed at once by the same one
 * (a tmux round trip less per call).
 */
async function checkedInput<C>(
  engine: Engine,
  pane: string,
  check: () => Promise<C>,
  paneOf: (checked: C) => string,
  act: (checked: C) => Promise<void>,
): Promise<C> {
  const run = async () => {
    const checked = await check();
    await act(checked);
    return checked;
  };
  if (PANE_ID.test(pane) && !inputQueues(engine).has(pane)) return withPaneInput(engine, pane, run);
  return withPaneInput(engine, paneOf(await check()), run);
}

/** Whether the steps press C-c (tmux reads key names case-insensitively; ^c is the same key). */
function pressesInterrupt(steps: readonly InputStep[]): boolean {
  return steps.some((step) => step.kind === 'keys' && step.names.some((name) => /^(?:c-|\^)c$/i.test(name)));
}

// ---- paste ----------------------------------------------------------------------------------------

export interface PasteRequest {
  readonly pane: string;
  readonly text: string;
  readonly enter?: boolean;
  /** Wrap in bracketed paste when the pane's program asked for it (default true); false pastes as if typed. */
  readonly bracket?: boolean;
  readonly force?: boolean;
  readonly field?: string;
}

/** A pasted end-of-paste marker would let text escape bracketed paste and run as typed keys. */
export const PASTE_MARKERS = /\u001b\[20[01]~/;

/**
 * Pastes `text` as one block through a private tmux buffer, bracketed when the program asked for
 * bracketed paste (so a shell inserts it without running each line). Returns the pane and the
 * number of Unicode code points pasted.
 */
export async function pasteText(engine: Engine, request: PasteRequest): Promise<{ pane: InputPaneRecord; characters: number }> {
  const bytes = Buffer.from(request.text, 'utf8');
  if (bytes.length > MAX_INPUT_BYTES)
    throw invalidArgument(`text is ${bytes.length} bytes; at most ${MAX_INPUT_BYTES} can be pasted in one call`);
  if (request.text.includes('\0')) throw invalidArgument('text contains a NUL character, which a terminal cannot receive');
  if (PASTE_MARKERS.test(request.text)) {
    throw invalidArgument('text contains a bracketed-paste marker (ESC [200~ or ESC [201~), which would let the rest run as typed keys');
  }
  const pane = await pasteChecked(engine, request, 'paste', async (paneId) => {
    if (bytes.length > 0)
      await withPrivateBuffer(engine, bytes, (name) =>
        engine.run(['paste-buffer', '-d', ...bracketFlag(request.bracket), '-b', name, '-t', paneId]),
      );
    if (request.enter) await sendSteps(engine, paneId, [{ kind: 'keys', names: ['Enter'] }]);
  });
  return { pane, characters: [...request.text].length };
}

/** paste-buffer's `-p` (bracketed paste, when the program asked for it) unless `bracket` is false. */
export const bracketFlag = (bracket: boolean | undefined): string[] => ((bracket ?? true) ? ['-p'] : []);

/**
 * Runs `paste` (tmux commands pasting into the pane) in the pane's input queue once the pane passed
 * the input checks: not dead, in no mode, not this server's own pane unless `force`. A paste is
 * not copied to synchronized panes, so only the pane itself is checked.
 */
export async function pasteChecked(
  engine: Engine,
  request: { readonly pane: string; readonly force?: boolean; readonly field?: string },
  action: string,
  paste: (paneId: string) => Promise<void>,
): Promise<InputPaneRecord> {
  const { pane } = await checkedInput(
    engine,
    request.pane,
    () => preflightInput(engine, request.pane, { action, force: request.force, field: request.field, synchronized: false }),
    (target) => target.pane.id,
    // A paste is input like any other: later waits count what the pane prints after it as new.
    ({ pane }) => withInputMark(engine, { pane, receivers: [pane.id] }, () => paste(pane.id)),
  );
  return pane;
}

/**
 * Loads `bytes` into a uniquely named tmux buffer, runs `use` with its name, and deletes the buffer
 * afterwards whatever happened, so the user's buffers and paste history are never touched.
 */
export async function withPrivateBuffer<T>(engine: Engine, bytes: Buffer, use: (name: string) => Promise<T>): Promise<T> {
  const name = `tmux-mcp-${randomBytes(8).toString('hex')}`;
  try {
    await engine.run(['load-buffer', '-b', name, '-'], { stdin: bytes });
    return await use(name);
  } finally {
    // paste-buffer -d has usually deleted it already; "unknown buffer" then is the good outcome.
    await engine.run(['delete-buffer', '-b', name]).catch(() => {});
  }
}
