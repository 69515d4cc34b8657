/**
 * What the view's event stream carries, shared by the server (feed.ts) and the page (client/view.ts).
 * Types only: the page's bundle takes nothing from Node.
 */

/** A pane as the page lists it. */
export interface ViewPane {
  readonly key: string;
  readonly host: string;
  readonly id: string;
  readonly session: string;
  readonly window: string;
  readonly command: string;
  readonly width: number;
  readonly height: number;
}

/** A pane's screen: the escape sequences that paint it onto a fresh terminal of its size (core/screen-paint.ts). */
export interface Screen {
  readonly key: string;
  readonly width: number;
  readonly height: number;
  readonly paint: string;
}

/** A call waiting for a person, as the page shows it (the gate's own shape). */
export type { PendingQuestion as ViewQuestion } from '../mcp/approvals/question.js';
