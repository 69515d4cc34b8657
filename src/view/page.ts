/**
 * The live view's one page: panes on the left, each in a real terminal emulator (xterm.js, loaded
 * from /view.js, built from the @xterm/xterm package), the calls waiting for a person and the audit
 * trail on the right. No inline script: the page's Content-Security-Policy allows only its own
 * script; the page's CSRF token rides in a meta tag, for its Approve, Deny and Pause.
 */
export function pageHtml(csrf: string, approvals: boolean): string {
  return PAGE_HTML.replace('CSRF_TOKEN', csrf).replace(
    '<!--PAUSE-->',
    approvals ? '<button id="pause" type="button" hidden>Pause</button>' : '',
  );
}

const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="CSRF_TOKEN">
<title>tmux-mcp live view (read-only)</title>
<link rel="stylesheet" href="/xterm.css">
<style>
  :root { color-scheme: dark; --bg: #14161a; --panel: #1d2026; --line: #2c313a; --text: #d7dae0; --dim: #8b93a1; --ok: #5fbf77; --err: #e5666d; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--text); font: 13px/1.4 system-ui, sans-serif; height: 100vh; display: flex; flex-direction: column; }
  header { padding: 8px 14px; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: baseline; }
  header h1 { font-size: 15px; margin: 0; font-weight: 600; }
  header .badge { font-size: 11px; padding: 1px 6px; border: 1px solid var(--dim); border-radius: 3px; color: var(--dim); }
  #status { color: var(--dim); margin-left: auto; }
  main { flex: 1; display: flex; min-height: 0; }
  #panes { flex: 1; overflow: auto; padding: 12px; display: flex; flex-wrap: wrap; gap: 12px; align-content: flex-start; }
  .pane { background: #000; border: 1px solid var(--line); border-radius: 4px; }
  .pane h2 { font-size: 12px; font-weight: 500; margin: 0; padding: 4px 8px; background: var(--panel); border-bottom: 1px solid var(--line); font-family: ui-monospace, monospace; }
  .pane h2 .cmd { color: var(--dim); }
  .pane .term { padding: 2px; }
  #omitted { color: var(--dim); width: 100%; }
  aside { width: 420px; border-left: 1px solid var(--line); display: flex; flex-direction: column; min-height: 0; }
  aside h2 { font-size: 13px; margin: 0; padding: 8px 12px; border-bottom: 1px solid var(--line); }
  #audit { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; font-family: ui-monospace, monospace; font-size: 12px; }
  #audit li { padding: 6px 12px; border-bottom: 1px solid var(--line); }
  #audit .head { display: flex; gap: 8px; }
  #audit .tool { font-weight: 600; }
  #audit .ok { color: var(--ok); }
  #audit .error { color: var(--err); }
  #audit .meta, #audit .args { color: var(--dim); word-break: break-all; }
  #audit .msg { color: var(--err); word-break: break-word; }
  #audit .item { padding-left: 24px; }
  #audit .approval .tool::before { content: "? "; color: var(--ask); }
  :root { --ask: #e0b252; }
  button { font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--dim); border-radius: 3px; padding: 2px 10px; cursor: pointer; }
  button:disabled { opacity: 0.5; cursor: default; }
  #pause.on { border-color: var(--ask); color: var(--ask); }
  #waiting { border-bottom: 2px solid var(--ask); max-height: 50%; overflow: auto; }
  #waiting h2 { color: var(--ask); }
  #questions { list-style: none; margin: 0; padding: 0; }
  #questions li { padding: 8px 12px; border-bottom: 1px solid var(--line); }
  #questions .what { font-weight: 600; }
  #questions .where, #questions .why, #questions .left { color: var(--dim); font-size: 12px; }
  #questions pre { background: #000; padding: 6px; margin: 6px 0; white-space: pre-wrap; word-break: break-all; max-height: 12em; overflow: auto; }
  #questions input { width: 100%; margin: 4px 0; background: var(--bg); color: var(--text); border: 1px solid var(--line); padding: 3px; }
  #questions .approve { border-color: var(--ok); color: var(--ok); }
  #questions .deny { border-color: var(--err); color: var(--err); margin-left: 6px; }
</style>
</head>
<body>
<header><h1>tmux-mcp live view</h1><span class="badge">read-only</span><!--PAUSE--><span id="status">connecting</span></header>
<main>
  <section id="panes" aria-label="Panes"></section>
  <aside aria-label="Audit trail">
    <section id="waiting" aria-label="Waiting for you" hidden><h2>Waiting for you</h2><ol id="questions"></ol></section>
    <h2>Audit trail</h2><ol id="audit" reversed></ol>
  </aside>
</main>
<script src="/view.js"></script>
</body>
</html>
`;
