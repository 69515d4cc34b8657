/**
 * Unknown arguments are named, with the nearest valid one, before anything
 * touches tmux.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';

test('an unknown argument is named with the nearest valid one, even when a required one is missing too', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env });
  const window = (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();

  const info = await mcp.fails('get_window_info', { window });
  assert.match(info, /unknown field "window" \(did you mean "windowId"\?\), and is missing the required field "windowId"/);
  const panes = await mcp.fails('list_panes', { windowId: window });
  assert.match(panes, /unknown field "windowId" \(did you mean "window"\?\)/);
  const typo = await mcp.fails('send_keys', { paneId: pane, keys: ['x'], literl: true });
  assert.match(typo, /unknown field "literl" \(did you mean "literal"\?\)/);
  // Nothing near: the known fields are listed instead.
  const far = await mcp.fails('capture_since', { paneId: pane, zzzzzzzz: 1 });
  assert.match(far, /unknown field "zzzzzzzz"; known fields: paneId, cursor, maxLines, waitMs/);
  // Refused before typing: the pane never saw the x.
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', pane), /x/);
});
