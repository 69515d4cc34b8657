/**
 * The plan-time checks the schemas cannot express: limits in UTF-8 bytes (a schema's maxLength
 * counts characters), no NUL, well-formed Unicode, a non-empty generation. All before tmux.
 */
import { hasLoneSurrogate, invalidArgument } from '../../core/index.js';
import type { JuliaApp, PaneTarget } from './app.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A string the contract bounds in bytes: well-formed, without NUL, at most `limit` UTF-8 bytes. */
export function checkText(value: string, limit: number, field: string): void {
  if (hasLoneSurrogate(value) || value.includes('\0') || bytes(value) > limit) {
    throw invalidArgument(`${field}: text must be valid UTF-8 without NUL and within its byte limit (${limit} bytes)`);
  }
}

export function checkTarget(target: PaneTarget | undefined): void {
  if (target === undefined) return;
  checkText(target.paneId, 64, 'target.paneId');
  if (target.generation === '') throw invalidArgument('generation cannot be empty');
  checkText(target.generation, 128, 'target.generation');
}

export const MAX_KEY_BYTES = 1024;
export const MAX_KEYS_BYTES = 8192;

export function checkKeys(keys: readonly string[]): void {
  keys.forEach((key, i) => checkText(key, MAX_KEY_BYTES, `keys[${i}]`));
  if (keys.reduce((sum, key) => sum + bytes(key), 0) > MAX_KEYS_BYTES) throw invalidArgument(`keys exceed ${MAX_KEYS_BYTES} bytes`);
}

/** Plans a pane tool's target, then `rest`. */
export function planOn<A extends { target?: PaneTarget }, P>(args: A, app: JuliaApp, rest: () => P): P & { target: PaneTarget } {
  checkTarget(args.target);
  const extra = rest();
  return { ...extra, target: app.planTarget(args.target) };
}
