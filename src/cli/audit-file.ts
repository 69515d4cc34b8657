/**
 * The audit trail as the server and `tmux-mcp call` open it (--audit, --audit-redact; the view's
 * trail when there is no file): the writer is audit.ts's, one write of one line per entry on an
 * O_APPEND descriptor, so the processes appending to one file never tear a line. A start that fails
 * afterwards removes the file it created and never wrote to, leaving nothing behind.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import type { AuditConfig } from '../config.js';
import { AuditTrail } from '../mcp/tools/audit.js';

export { AuditFileError } from '../mcp/tools/audit.js';

export interface OpenedTrail {
  readonly trail: AuditTrail;
  /** Closes the trail and removes its file if this process created it and wrote nothing. */
  discardIfUnused(): void;
}

/** Opens (creating, mode 0600) the trail; a file that cannot be written throws AuditFileError. */
export function openAuditTrail(audit: AuditConfig): OpenedTrail {
  const created = audit.file !== undefined && !exists(audit.file);
  const trail = new AuditTrail({
    ...(audit.file !== undefined ? { file: audit.file } : {}),
    redact: audit.redact.map((source) => new RegExp(source, 'g')),
  });
  return {
    trail,
    discardIfUnused() {
      trail.close();
      if (created) removeIfEmpty(audit.file!);
    },
  };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function removeIfEmpty(file: string): void {
  try {
    if (lstatSync(file).size === 0) unlinkSync(file);
  } catch {
    // Gone already: nothing to undo.
  }
}
