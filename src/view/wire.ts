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

/** A call waiting for a person, as the page shows it (mcp/approvals/board.ts PendingQuestion). */
export interface ViewQuestion {
  readonly id: string;
  readonly tool: string;
  readonly batch?: { readonly tool: string; readonly index: number };
  readonly where: readonly string[];
  readonly text?: string;
  readonly arguments: unknown;
  readonly rule?: string;
  readonly paused: boolean;
  readonly client: { readonly name?: string };
  readonly askedAt: string;
  /** Milliseconds since the epoch. */
  readonly deadline: number;
}
