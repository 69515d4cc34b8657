/**
 * The scope rule for what tmux's format language can reach. A format is expanded in one pane's
 * context, but its loop and search modifiers walk every session (`S:`), window (`W:`), pane (`P:`)
 * or client (`L:`), `C:` searches pane text, `N:` asks whether a session or window of a name exists,
 * and `client_*` variables describe a client and the session it is on. While sessions are limited,
 * a format from a caller (a format read, an option's value) may use none of them.
 */
import { withoutTimeConversions } from '../../tmux/formats.js';
import { invalidArgument } from '../failure.js';
import type { Scope } from './scope.js';
import { outside } from './scope-gate.js';

/** A loop or search modifier: right after `#{` or a `;` between modifiers, not the start of a variable name. */
const REACHING_MODIFIER = /[{;]\s*[SWPLCN](?![A-Za-z0-9_])/;
/** A client variable (client_session, client_name, ...). */
const CLIENT_VARIABLE = /client_[a-z]/;

/** Refuses, under a session scope, a caller's format that could read beyond the allowed sessions. */
export function checkFormatReach(scope: Scope, format: string, field: string): void {
  if (!scope.limitsSessions) return;
  const forms = [format, withoutTimeConversions(format)];
  if (forms.some((form) => REACHING_MODIFIER.test(form))) {
    throw outside(scope, `${field} uses a loop or search modifier (S:, W:, P:, L:, C:, N:), which reaches sessions outside the scope`);
  }
  if (forms.some((form) => CLIENT_VARIABLE.test(form)))
    throw outside(scope, `${field} reads a client_* variable, which describes clients and sessions outside the scope`);
}

/** E and T as a modifier: right after #{ or after the ; that separates modifiers. */
const REEXPANDING_MODIFIER = /[{;]\s*[ET]\s*[:;]/;

/** True when `format` uses E: or T:, which expand a value (a title a program set, say) as a format again. */
export function reexpands(format: string): boolean {
  return REEXPANDING_MODIFIER.test(format) || REEXPANDING_MODIFIER.test(withoutTimeConversions(format));
}

/** Refuses E:/T: in a caller's format: a #(...) job hidden in a value would run. */
export function checkReexpanding(format: string, field: string): void {
  if (reexpands(format)) {
    throw invalidArgument(
      `${field} uses the E: or T: modifier, which expands a value as a format again (and so could run a #(...) job hidden in it); it is not allowed here`,
      'Read the value itself with #{name}, or use other modifiers (=, s/../../, l:, q:, b:, d:, ...).',
    );
  }
}
